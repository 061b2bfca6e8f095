import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubsTesting

#if os(Linux) || os(macOS)
@Suite("Serving stubs: the trait")
struct ServingTraitTests {
    @Test(.stubbed(serving: true)) func theTraitServesTheTestsRegistry() async throws {
        StubRegistry.current.stub(isPath("/profile")) { _ in StubResponse(string: "Ada") }.expect(.once)
        let server = try StubServer.current
        #expect(server.registry === StubRegistry.current)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, _) = try await session.data(from: server.url("/profile"))
        #expect(String(decoding: data, as: UTF8.self) == "Ada")
    }

    /// When the test ends, its server stops: its port no longer answers.
    @Test func theServerStopsWhenTheTestEnds() async throws {
        let test = try #require(Test.current)
        let box = ServerBox()
        try await StubsTrait.stubbed(verify: false, serving: true).provideScope(for: test, testCase: nil) {
            box.server = try StubServer.current
        }
        let port = try #require(box.server?.port)
        #expect {
            _ = try RawConnection(port: port)
        } throws: { error in
            "\(error)".contains("refused")
        }
    }

    @Test func currentOutsideAServingTestSaysWhatToAdd() {
        #expect {
            _ = try StubServer.current
        } throws: { error in
            "\(error)".contains("add it to this @Test (or to its @Suite)")
        }
    }
}

private final class ServerBox: @unchecked Sendable {
    var server: StubServer?
}
#endif

#if canImport(XCTest)
import XCTest

final class MakeStubServerTests: XCTestCase {
    func testMakeStubServerServesItsRegistry() async throws {
        let server = try makeStubServer()
        server.registry.stub(isPath("/x")) { _ in StubResponse(string: "served") }.expect(.once)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let (data, _) = try await session.data(from: server.url("/x"))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "served")
    }
}
#endif
