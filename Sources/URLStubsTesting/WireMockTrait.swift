#if canImport(Testing)
import Foundation
import Testing
import URLStubs
import URLStubsWireMock

extension Trait where Self == StubsTrait {
    /// A fresh registry per test holding every mapping of a WireMock folder
    /// (`mappings/**/*.json` and `__files/`), answering as WireMock's standalone server would,
    /// verified when the test ends (unless `verify` is `false`).
    ///
    /// ```swift
    /// @Test(.wireMock(URL(fileURLWithPath: "Fixtures/wiremock")))
    /// func showsTheCart() async throws {
    ///     StubRegistry.current.setScenarioState("cart", to: "full")
    ///     …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - folder: The folder holding `mappings/` and `__files/` (WireMock's `--root-dir`).
    ///   - globalTemplating: Render every response as a template (`--global-response-templating`).
    ///   - unmatchedRequests: What to do with a request no mapping matches; it fails by default.
    ///   - verify: Whether the registry is verified when the test ends.
    ///   - serving: Also serve the mappings over loopback HTTP (``URLStubsServer/StubServer/current``).
    public static func wireMock(
        _ folder: URL, globalTemplating: Bool = false, unmatchedRequests: UnmatchedRequestPolicy = .fail, verify: Bool = true,
        serving: Bool = false
    ) -> StubsTrait {
        var trait = StubsTrait(unmatchedRequests: unmatchedRequests, verifies: verify) { registry in
            try registry.stubs(fromWireMock: folder, globalTemplating: globalTemplating)
        }
        trait.serves = serving
        return trait
    }
}
#endif
