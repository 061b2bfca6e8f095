import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// A wait that gives up is what the test expected of the traffic and did not see: it throws a
/// `VerificationReport`, as `verifyOrThrow()` does, whose problem says what was awaited, how
/// many came and the closest other request.
@Suite("A wait that gives up is a VerificationReport")
struct WaitTimeoutReportTests {
    /// What `wait` threw.
    private func thrown(by wait: () async throws -> Void) async -> (any Error)? {
        do {
            try await wait()
            return nil
        } catch {
            return error
        }
    }

    @Test func waitForRequestsThrowsAReportNamingWhatCame() async throws {
        let registry = StubRegistry()
        registry.stub(.any, name: "everything") { _ in StubResponse(statusCode: 204) }
        _ = await fetch(request("https://api.test/analytic", method: "POST"), from: registry)
        _ = await fetch(request("https://api.test/users"), from: registry)
        let error = await thrown { _ = try await registry.waitForRequests(matching: isMethod(.post) && isPath("/analytics"), timeout: 0.2) }
        let report = try #require(error as? VerificationReport, "\(String(describing: error))")
        #expect(!report.isSuccess)
        #expect(
            report.description.hasPrefix("URLStubs: waited 0.2 s for 1 request matching method is POST and path is \"/analytics\"; none arrived."),
            "\(report)")
        // One problem: what was awaited, how many came, the closest other request.
        let problem = try #require(report.problems.first)
        #expect(report.problems.count == 1 && problem.kind == .waitTimedOut, "\(report.problems)")
        #expect(problem.summary == "waited 0.2 s for 1 request matching method is POST and path is \"/analytics\"; none arrived.")
        #expect(problem.count == 0 && problem.location == nil && problem.stub == nil)
        #expect(problem.request?.request.description == "POST https://api.test/analytic")
        #expect(problem.message.contains("1. POST https://api.test/analytic ->"), "\(problem.message)")
        #expect(problem.message.contains("- expected path \"/analytics\", got \"/analytic\""), "\(problem.message)")
        #expect(report.timedOutWait?.others.map(\.request.description) == ["POST https://api.test/analytic", "GET https://api.test/users"])
    }

    @Test func aGatesWaitThrowsAReportToo() async throws {
        let gate = ResponseGate(name: "checkout")
        let error = await thrown { try await gate.waitForRequest(timeout: 0.1) }
        let report = try #require(error as? VerificationReport, "\(String(describing: error))")
        #expect(report.problems.map(\.kind) == [.waitTimedOut])
        #expect(report.description.hasPrefix("URLStubs: waited 0.1 s for a new request held by the gate \"checkout\""), "\(report)")
    }

    @Test func whatDidArriveIsCountedAndListed() async throws {
        let registry = StubRegistry()
        registry.stub(.any) { _ in StubResponse(statusCode: 204) }
        _ = await fetch("https://api.test/ping", from: registry)
        let error = await thrown { _ = try await registry.waitForRequests(matching: isPath("/ping"), count: 2, timeout: 0.2) }
        let report = try #require(error as? VerificationReport, "\(String(describing: error))")
        let problem = try #require(report.problems.first)
        #expect(problem.count == 1 && problem.request == nil, "\(problem)")
        #expect(problem.summary.hasSuffix("; 1 arrived:") && problem.message.contains("  GET https://api.test/ping"), "\(problem.message)")
        #expect(report.timedOutWait?.matched.map(\.request.description) == ["GET https://api.test/ping"])
    }
}
