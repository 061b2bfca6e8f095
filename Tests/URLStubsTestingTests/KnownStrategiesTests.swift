import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import XCTest
import URLStubsTesting
@testable import TestSupport

/// A test that never names GraphQL still gets an unmatched GraphQL request described, with
/// the GraphQL stub to type: the test helpers register every strategy the package ships.
/// Each check runs in a fresh child process, where no other test has registered one.
@Suite("Known strategies")
struct KnownStrategiesTests {
    static let childVariable = "URLSTUBS_TEST_KNOWN_STRATEGIES"

    /// An unmatched GraphQL request's report, through `registry`.
    static func graphQLReport(from registry: StubRegistry) async -> String? {
        let body = Data(#"{"query":"query GetUser { user { id } }"}"#.utf8)
        let result = await fetch(
            request("https://api.test/graphql", method: "POST", body: body, headers: ["Content-Type": "application/json"]), from: registry)
        guard case .unmatchedRequest(let report)? = result.stubError else { return nil }
        return report
    }

    static func describesGraphQL(_ report: String?) -> Bool {
        guard let report else { return false }
        return report.contains(#"GraphQL: query "GetUser""#) && report.contains(#"isGraphQLOperation("GetUser")"#)
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func theStubbedTraitDescribesGraphQL() async throws {
        let child = try await runTestInChildProcess("childStubbedTestSeesGraphQL", environment: [Self.childVariable: "1"], timeLimit: 120)
        #expect(child.status == 0, "\(child.output)")
    }

    @Test(.enabled(if: testBinary != nil, "the child is the .xctest binary swift test runs on Linux"))
    func theXCTestHelperDescribesGraphQL() async throws {
        let child = try await runTestInChildProcess(
            "URLStubsTestingTests.KnownStrategiesXCTests/testChildRegistrySeesGraphQL", library: "xctest", environment: [Self.childVariable: "1"],
            timeLimit: 120)
        #expect(child.status == 0, "\(child.output)")
        #expect(child.output.contains("Executed 1 test"), "\(child.output)")
    }

    /// Runs only in the child process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil), .stubbed(verify: false))
    func childStubbedTestSeesGraphQL() async throws {
        let registry = try #require(TestScope.registry)
        let report = await Self.graphQLReport(from: registry)
        #expect(Self.describesGraphQL(report), "\(report ?? "no report")")
    }
}

final class KnownStrategiesXCTests: XCTestCase {
    /// Runs only in the child process.
    func testChildRegistrySeesGraphQL() async throws {
        guard ProcessInfo.processInfo.environment[KnownStrategiesTests.childVariable] != nil else { return }
        let registry = makeStubRegistry(verifyOnTearDown: false)
        let report = await KnownStrategiesTests.graphQLReport(from: registry)
        XCTAssertTrue(KnownStrategiesTests.describesGraphQL(report), report ?? "no report")
    }
}
