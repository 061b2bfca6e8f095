import Foundation
import Testing
import URLStubs
@testable import URLStubsOpenAPI

/// "The first `examples` entry" is the first one written in the document, not the
/// alphabetically first: a response built from the document shows it.
@Suite("Examples keep the document's order")
struct ExamplesOrderTests {
    private static let yaml = """
        openapi: 3.0.3
        info: {title: Order, version: "1"}
        paths:
          /greeting:
            get:
              operationId: greet
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      examples:
                        zulu: {value: {word: "first written"}}
                        alpha: {value: {word: "alphabetically first"}}
                        mike: {value: {word: "third"}}
        """

    private static let json = """
        {"openapi": "3.0.3", "info": {"title": "Order", "version": "1"},
         "paths": {"/greeting": {"get": {"operationId": "greet", "responses": {"200": {
           "description": "ok", "content": {"application/json": {"examples": {
             "zulu": {"value": {"word": "first written"}},
             "alpha": {"value": {"word": "alphabetically first"}},
             "mike": {"value": {"word": "third"}}}}}}}}}}}
        """

    private static let flowYAML = """
        openapi: 3.0.3
        info: {title: Order, version: "1"}
        paths:
          /greeting:
            get:
              operationId: greet
              responses:
                "200":
                  description: ok
                  content:
                    application/json: {examples: {zulu: {value: {word: "first written"}}, alpha: {value: {word: "alphabetically first"}}}}
        """

    @Test(arguments: [("YAML", yaml), ("JSON", json), ("flow YAML", flowYAML)])
    func theFirstWrittenExampleAnswers(kind: String, text: String) throws {
        let document = try OpenAPIDocument(data: Data(text.utf8), source: "\(kind) document")
        let response = try document.response(for: "greet", status: 200)
        let body = try #require(response.body.data)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: String]
        #expect(object == ["word": "first written"], "\(kind): \(String(decoding: body, as: UTF8.self))")
    }
}
