import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// Parallel tests, each with its own registry, stubbing the same URL.
@Suite("Isolation between registries")
struct IsolationTests {
    @Test(arguments: 0..<50)
    func eachParallelTestSeesOnlyItsOwnStub(index: Int) async {
        let registry = StubRegistry()
        let log = EventLog()
        registry.stub(isAbsoluteURLString("https://api.example.com/profile")) { _ in
            StubResponse(data: Data("body \(index)".utf8))
        }
        registry.onActivation { _, _, _ in log.append("activation") }
        for api in FetchAPI.allCases {
            let result = await fetch("https://api.example.com/profile", from: registry, using: api)
            #expect(result.body == "body \(index)", "\(api)")
        }
        #expect(registry.journal.count == FetchAPI.allCases.count)
        #expect(registry.stubs.count == 1)
        try? await waitUntil { log.events.count >= FetchAPI.allCases.count }
        #expect(log.events.count == FetchAPI.allCases.count, "hooks see only this registry's requests")
    }

    @Test func twoRegistriesInstalledIntoTwoConfigurations() async {
        let first = StubRegistry()
        let second = StubRegistry()
        first.stub(.any) { _ in StubResponse(data: Data("first".utf8)) }
        second.stub(.any) { _ in StubResponse(data: Data("second".utf8)) }
        #expect(ObjectIdentifier(first.protocolClass) != ObjectIdentifier(second.protocolClass))
        let one = URLSessionConfiguration.ephemeral
        let two = URLSessionConfiguration.default
        first.install(into: one)
        second.install(into: two)
        let sessions = (URLSession(configuration: one), URLSession(configuration: two))
        #expect(await fetchWithCompletionHandler(request("https://x.test/"), session: sessions.0).body == "first")
        #expect(await fetchWithCompletionHandler(request("https://x.test/"), session: sessions.1).body == "second")
        #expect(first.journal.count == 1)
        #expect(second.journal.count == 1)
    }

    @Test func releasedRegistriesLeaveNothingBehind() async {
        final class WeakBox: @unchecked Sendable { weak var registry: StubRegistry? }
        let classesBefore = ProtocolClassPool.classCount
        var boxes: [WeakBox] = []
        for index in 0..<10_000 {
            let registry = StubRegistry()
            registry.stub(isHost("leak.test") && isPath("/x")) { _ in StubResponse(data: Data(count: 1024)) }
            if index % 500 == 0 {
                // A session per registry would measure URLSession, not us: a sample is used.
                _ = await fetch("https://leak.test/x", from: registry)
            }
            if index % 100 == 0 {
                let box = WeakBox()
                box.registry = registry
                boxes.append(box)
            }
        }
        // The last request's work-queue step may still be unwinding when its caller resumes.
        let sampled = boxes
        try? await waitUntil { sampled.allSatisfy { $0.registry == nil } }
        #expect(boxes.allSatisfy { $0.registry == nil }, "every registry was freed")
        let growth = ProtocolClassPool.classCount - classesBefore
        // Other tests run in parallel and hold registries of their own; 10,000 would mean a leak.
        #expect(growth < 2_000, "protocol classes grew by \(growth)")
    }

    @Test func sharedRegistryAnswersUrlSessionShared() async throws {
        // Adding a shared stub registers the shared protocol class; on Linux that must happen
        // before URLSession.shared is first used, and nothing in this suite uses it earlier.
        let host = "shared-\(UUID().uuidString.prefix(8).lowercased()).test"
        let descriptor = stub(isHost(host), name: "shared") { _ in StubResponse(data: Data("from shared".utf8)) }
        defer { StubRegistry.shared.remove(descriptor) }
        let (data, _) = try await URLSession.shared.data(from: URL(string: "https://\(host)/")!)
        #expect(String(decoding: data, as: UTF8.self) == "from shared")
        #expect(StubRegistry.shared.unmatchedRequestPolicy == .passthrough)
    }

    @Test func privateRegistriesIgnoreTheSharedSession() async {
        let registry = StubRegistry()
        let host = "private-\(UUID().uuidString.prefix(8).lowercased()).test"
        registry.stub(isHost(host)) { _ in StubResponse(data: Data("private".utf8)) }
        StubRegistry.activateForSharedSession()
        let result = await fetchWithCompletionHandler(request("https://\(host)/"), session: URLSession.shared)
        #expect(result.body != "private")
        #expect(registry.journal.isEmpty)
    }
}
