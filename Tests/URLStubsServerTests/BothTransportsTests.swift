import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsServer

#if os(Linux) || os(macOS)
@Suite("Serving stubs: one registry, two transports")
struct BothTransportsTests {
    /// The same stub answers a stubbed session and a plain client of the server, and one
    /// journal and one verification see both.
    @Test func theSameStubAnswersBothTransportsWithOneJournal() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/profile"), name: "profile") { request in
            StubResponse(string: "Ada via \(request.url?.host ?? "-")")
        }.expect(.exactly(2))
        let server = try registry.serve()
        defer { server.stop() }

        let stubbed = registry.makeSession()
        let (viaProtocol, _) = try await stubbed.data(from: URL(string: "https://api.example.com/profile")!)
        let plain = URLSession(configuration: .ephemeral)
        defer { plain.invalidateAndCancel() }
        let (viaServer, _) = try await plain.data(from: server.url("/profile"))

        #expect(String(decoding: viaProtocol, as: UTF8.self) == "Ada via api.example.com")
        #expect(String(decoding: viaServer, as: UTF8.self) == "Ada via 127.0.0.1")
        #expect(registry.journal.map { $0.stub?.name } == ["profile", "profile"])
        #expect(registry.journal.map(\.statusCode) == [200, 200])
        #expect(registry.verify().problems.isEmpty, "\(registry.verify())")
    }
}
#endif
