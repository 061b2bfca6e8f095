import Foundation
import Testing
import URLStubs
import URLStubsTestRunnerLink
import URLStubsTesting

/// Both ends of the UI-test link fail with one error type: an `AppBackend` call throws
/// `TestRunnerLinkError`, as the app's `connectIfLaunchedByTest` does.
@Suite("AppBackend errors are TestRunnerLinkErrors")
struct AppBackendErrorDomainTests {
    @Test func aCallWithNoAppConnectedThrowsTestRunnerLinkError() async throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        defer { backend.close() }
        var thrown: (any Error)?
        do { _ = try await backend.journal() } catch { thrown = error }
        let error = try #require(thrown as? TestRunnerLinkError, "\(String(describing: thrown))")
        #expect(error.description.contains("no app connected to this AppBackend within 0.20 s"), "\(error)")
        guard case .appNeverConnected(let waited, let environment, _) = error else {
            Issue.record("expected appNeverConnected, got \(error)")
            return
        }
        #expect(waited == 0.2 && environment.contains(TestRunnerLink.addressVariable))
    }

    @Test func aClosedBackendThrowsTestRunnerLinkError() async throws {
        let backend = try AppBackend(connectTimeout: 0.2)
        backend.close()
        var thrown: (any Error)?
        do { try await backend.waitForApp(timeout: 0.2) } catch { thrown = error }
        #expect(thrown as? TestRunnerLinkError == .closed, "\(String(describing: thrown))")
    }
}
