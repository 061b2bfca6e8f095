import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsScenarios
@testable import TestSupport

/// A scenario's network profile applies to every stub of the scenario, with the checks of the
/// response modifiers it stands for.
@Suite("Network profiles")
struct NetworkProfileTests {
    @Test func aScenarioProfileWithASpeedThatIsNotPositiveFailsItsRequests() async {
        let registry = StubRegistry()
        registry.activate(
            Scenario("stalled", profile: NetworkProfile(downloadSpeed: .kilobytesPerSecond(0))) { stubs in
                stubs.stub(isPath("/feed")) { _ in StubResponse(string: "feed") }
            })
        let result = await fetch("https://api.test/feed", from: registry)
        guard case .invalidDownloadSpeed(let speed, _)? = result.stubError else {
            Issue.record("expected invalidDownloadSpeed, got \(String(describing: result.error))")
            return
        }
        #expect(speed == 0)
    }
}
