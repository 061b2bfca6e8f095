import Foundation
import Testing
import URLStubs
import URLStubsOpenAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
import LoopbackTestServer
#endif

#if os(macOS) || os(Linux)
/// What the real network answers a stub's passthrough is checked like a stub's answer.
@Suite struct ContractPassthroughTests {
    @Test func theNetworksAnswerToAPassthroughIsChecked() async throws {
        let contract = try document(
            """
            openapi: 3.1.0
            info: {title: echo, version: "1"}
            paths:
              /echo:
                get:
                  operationId: echo
                  responses:
                    "200":
                      description: What the server saw.
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [method, path]
                            properties:
                              method: {const: POST}
            """)
        let registry = StubRegistry()
        registry.checkContract(contract)
        let line = #line + 1
        registry.stub(isPath("/echo"), name: "live echo") { _ in .passthrough() }
        let result = await send(URLRequest(url: TestServer.shared.url("/echo")), through: registry)
        #expect((try? result.get()) == 200)
        let problems = registry.verify().problems
        #expect(
            problems.map(\.summary) == [
                "the network's answer (passed through by \"live echo\" (URLStubsOpenAPITests/ContractPassthroughTests.swift:\(line))) broke the OpenAPI contract: echo (GET /echo): response 200 body $.method: expected \"POST\", found \"GET\" (#/paths/~1echo/get/responses/200/content/application~1json/schema/properties/method/const)"
            ], "\(problems)")
    }
}
#endif
