import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// A near-miss report scrubs a multipart form's password field and a password written inline in
/// a GraphQL document whether or not the GraphQL or multipart module was used first in the
/// process: each check runs in a fresh child process, where no test has registered either.
@Suite("Scrubbing before any format module is used")
struct UnregisteredFormatScrubbingTests {
    static let childVariable = "URLSTUBS_TEST_UNREGISTERED_SCRUBBING"

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func aFreshProcessScrubsMultipartAndInlineGraphQLSecrets() async throws {
        let child = try await runTestInChildProcess("childReportHidesFormatSecrets", environment: [Self.childVariable: "1"], timeLimit: 120)
        #expect(child.status == 0, "\(child.output)")
        #expect(child.output.contains("1 test"), "\(child.output)")
    }

    /// Runs only in the child process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func childReportHidesFormatSecrets() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/elsewhere"), name: "elsewhere") { _ in StubResponse(statusCode: 204) }

        let boundary = "Boundary7MA4YWxk"
        let form = [
            "--\(boundary)", #"Content-Disposition: form-data; name="user""#, "", "amy",
            "--\(boundary)", #"Content-Disposition: form-data; name="password""#, "", "multipart-secret-7",
            "--\(boundary)--", "",
        ].joined(separator: "\r\n")
        let upload = await fetch(
            request(
                "https://api.test/login", method: "POST", body: Data(form.utf8),
                headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"]), from: registry)
        let formReport = try #require(upload.stubError.flatMap { if case .unmatchedRequest(let r) = $0 { r } else { nil } })
        #expect(!formReport.contains("multipart-secret-7"), "\(formReport)")
        #expect(formReport.contains("amy"), "only the listed fields are scrubbed: \(formReport)")

        let document = #"{"query":"mutation { login(user: \"amy\", password: \"graphql-secret-9\") { token } }"}"#
        let mutation = await fetch(
            request("https://api.test/graphql", method: "POST", body: Data(document.utf8), headers: ["Content-Type": "application/json"]),
            from: registry)
        let graphQLReport = try #require(mutation.stubError.flatMap { if case .unmatchedRequest(let r) = $0 { r } else { nil } })
        #expect(!graphQLReport.contains("graphql-secret-9"), "\(graphQLReport)")
        #expect(graphQLReport.contains("amy"), "only the listed arguments are scrubbed: \(graphQLReport)")
    }
}
