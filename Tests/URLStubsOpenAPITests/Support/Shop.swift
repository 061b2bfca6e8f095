import Foundation
import URLStubs
@testable import URLStubsOpenAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shop documents under Fixtures/OpenAPI, read once.
enum Shop {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")
    static let yamlURL = folder.appendingPathComponent("shop.yaml")
    static let jsonURL = folder.appendingPathComponent("shop.json")
    static let yaml = try! OpenAPIDocument(contentsOf: yamlURL)
    static let json = try! OpenAPIDocument(contentsOf: jsonURL)
    /// Both spellings, for tests that must give identical results with either.
    static let both = [yaml, json]
}

/// Reads YAML text for a test.
func yaml(_ text: String) throws -> JSONValue {
    try YAMLReader.read(Data(text.utf8))
}

/// A document from inline YAML text.
func document(_ text: String) throws -> OpenAPIDocument {
    try OpenAPIDocument(data: Data(text.utf8), source: "inline.yaml")
}

/// Sends `request` through a session of `registry` and returns the status, or the error.
func send(_ request: URLRequest, through registry: StubRegistry) async -> Result<Int, any Error> {
    let session = registry.makeSession()
    defer { session.finishTasksAndInvalidate() }
    do {
        let (_, response) = try await session.data(for: request)
        return .success((response as? HTTPURLResponse)?.statusCode ?? 0)
    } catch {
        return .failure(error)
    }
}

func request(_ method: String, _ url: String, headers: [String: String] = [:], json: String? = nil) -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let json {
        request.httpBody = Data(json.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    return request
}
