import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Contract violations print the values of the default scrub list as `<scrubbed>`, as the rest
/// of `verify()` does.
@Suite struct ContractScrubbingTests {
    static let contract = try! document(
        """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /login:
            post:
              operationId: login
              parameters:
                - {name: api_key, in: query, schema: {type: string, minLength: 40}}
                - {name: X-Api-Key, in: header, schema: {type: string, pattern: '^key-'}}
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        password: {type: string, minLength: 40}
                        secret: {type: object, properties: {pin: {type: integer}}}
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          access_token: {type: integer}
                          token: {type: string, enum: [fixed]}
        """)

    static let secrets = ["hunter2-query-value", "hunter2-header-value", "hunter2-body-password", "hunter2-pin", "hunter2-access", "hunter2-token"]

    @Test func verifyShowsNoSecretValueOfTheDefaultList() async throws {
        let registry = StubRegistry()
        registry.checkContract(Self.contract)
        registry.stub(
            isPath("/login"),
            responses: [try StubResponse(json: ["access_token": "hunter2-access", "token": "hunter2-token"], statusCode: 200)])
        var login = request(
            "POST", "https://api.test/login?api_key=hunter2-query-value", headers: ["X-Api-Key": "hunter2-header-value"],
            json: #"{"password": "hunter2-body-password", "secret": {"pin": "hunter2-pin"}}"#)
        login.timeoutInterval = 30
        #expect(try await send(login, through: registry).get() == 200)
        let report = "\(registry.verify())"
        for secret in Self.secrets {
            #expect(!report.contains(secret), "\(secret) in \(report)")
        }
        #expect(report.components(separatedBy: "<scrubbed>").count - 1 >= 6, "\(report)")
    }
}
