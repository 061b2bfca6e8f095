import Foundation
import Testing
import URLStubs
import URLStubsOpenAPI
import URLStubsOpenAPITesting
import URLStubsTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `.contract` trait binds the document to the registry `.stubbed` made; a conforming
/// stub leaves nothing to report when the trait verifies it.
@Suite struct ContractTraitTests {
    @Test(.stubbed, .contract(openAPI: Shop.yamlURL))
    func theTraitBindsTheDocumentToTheTestsRegistry() async throws {
        let registry = StubRegistry.current
        #expect(registry.exchangeCheckerList.count == 1)
        registry.stub(.get, "https://api.shop.test/v1/pets/7", json: ["id": 7, "name": "Rex"])
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(from: URL(string: "https://api.shop.test/v1/pets/7")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(registry.verify().isSuccess)
    }

    @Test(.stubbed, .contract(Shop.json))
    func aDocumentReadOnceServesManyTests() {
        #expect(StubRegistry.current.exchangeCheckerList.count == 1)
    }
}
