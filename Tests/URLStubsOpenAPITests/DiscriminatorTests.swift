import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// A discriminator without `mapping` accepts what plain `oneOf` accepts, and generated values
/// pass the same check.
@Suite struct DiscriminatorTests {
    static let chat = try! document(
        """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /messages:
            post:
              operationId: postMessage
              requestBody:
                content:
                  application/json: {schema: {$ref: '#/components/schemas/Message'}}
              responses:
                "200":
                  description: ok
                  content:
                    application/json: {schema: {$ref: '#/components/schemas/Message'}}
        components:
          schemas:
            Message:
              oneOf:
                - $ref: '#/components/schemas/UserMessage'
                - $ref: '#/components/schemas/AssistantMessage'
              discriminator: {propertyName: role}
            UserMessage:
              type: object
              required: [role, content]
              properties:
                role: {type: string, enum: [user]}
                content: {type: string}
            AssistantMessage:
              type: object
              required: [role]
              properties:
                role: {type: string, enum: [assistant]}
                refusal: {type: string}
            Pet:
              oneOf:
                - $ref: '#/components/schemas/Cat'
                - $ref: '#/components/schemas/Dog'
              discriminator: {propertyName: kind}
            Cat: {type: object, required: [kind], additionalProperties: false, properties: {kind: {type: string}, purrs: {type: boolean}}}
            Dog: {type: object, required: [kind, barks], properties: {kind: {type: string}, barks: {type: boolean}}}
        """)

    @Test func aValuePlainOneOfAcceptsIsValidWithoutAMapping() throws {
        let violations = try Self.chat.violations(of: ["role": "user", "content": "hi"], againstSchemaAt: "#/components/schemas/Message")
        #expect(violations == [])
        #expect(try Self.chat.violations(of: ["role": "assistant"], againstSchemaAt: "#/components/schemas/Message") == [])
    }

    @Test func aValueNoAlternativeAcceptsIsStillRefused() throws {
        let violations = try Self.chat.violations(of: ["role": "robot"], againstSchemaAt: "#/components/schemas/Message")
        #expect(violations.count == 1)
        #expect(violations.first?.schemaPath == "#/components/schemas/Message/oneOf", "\(violations)")
    }

    @Test func theSchemaNameStillSelectsItsSchema() throws {
        #expect(try Self.chat.violations(of: ["kind": "Dog", "barks": true], againstSchemaAt: "#/components/schemas/Pet") == [])
        // No alternative accepts it: the schema its discriminator names gives the report.
        let violations = try Self.chat.violations(of: ["kind": "Dog", "barks": "loud"], againstSchemaAt: "#/components/schemas/Pet")
        #expect(violations.map(\.schemaPath) == ["#/components/schemas/Dog/properties/barks/type"], "\(violations)")
    }

    @Test func aGeneratedValuePassesTheCheckAndARequestWithTheEnumValueIsAccepted() async throws {
        let response = try Self.chat.response(for: "postMessage", status: 200)
        let value = try JSONValue(data: #require(response.body.data))
        #expect(value == ["role": "user", "content": "string"])
        let registry = StubRegistry()
        registry.checkContract(Self.chat)
        registry.stub(try Self.chat.matcher(for: "postMessage"), responses: [response])
        let sent = await send(request("POST", "https://api.test/messages", json: #"{"role": "user", "content": "hello"}"#), through: registry)
        #expect(try sent.get() == 200)
        #expect(registry.verify().isSuccess, "\(registry.verify())")
    }
}
