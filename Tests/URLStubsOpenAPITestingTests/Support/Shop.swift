import Foundation
import URLStubsOpenAPI

/// The shop document under Fixtures/OpenAPI that the trait's tests check against.
enum Shop {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/OpenAPI")
    static let yamlURL = folder.appendingPathComponent("shop.yaml")
    static let json = try! OpenAPIDocument(contentsOf: folder.appendingPathComponent("shop.json"))
}
