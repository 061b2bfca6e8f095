import Foundation
import Testing
import URLStubs
import URLStubsTesting
@testable import TestSupport

/// The names AppBackend had before it took the in-process registry's (`removeAll()`,
/// `activate(_:)`, `deactivate(_:)`) still work, as deprecated forwards. (Tests marked
/// deprecated may call deprecated API without a warning.)
@Suite("AppBackend's earlier names")
struct AppBackendEarlierSpellingTests {
    @available(*, deprecated, message: "exercises deprecated spellings")
    @Test func scenarioAndRemovalNamesForwardToTheRegistrysNames() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let registry = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: registry))
        try await backend.activateScenario("sold-out")
        #expect(await fetch("https://app.test/api/cart", from: registry).statusCode == 409)
        try await backend.stub(.any, response: RemoteResponse(string: "added"))
        #expect(await fetch("https://app.test/api/cart", from: registry).body == "added")
        try await backend.removeAllStubs()
        #expect(await fetch("https://app.test/api/cart", from: registry).statusCode == 409)
        #expect(try await backend.deactivateScenario("sold-out"))
        #expect(try await backend.deactivateScenario("sold-out") == false, "no longer active")
    }
}
