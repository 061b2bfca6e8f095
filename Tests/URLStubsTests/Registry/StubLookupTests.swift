import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// The stub index behind a request: the candidates it hands out must be exactly the stubs a
/// scan of every stub, newest first, would try.
@Suite("Stub lookup")
struct StubLookupTests {
    private static func descriptor(_ matcher: RequestMatcher, sequence: UInt64) -> StubDescriptor {
        StubDescriptor(
            name: "#\(sequence)", matcher: matcher, location: StubLocation(fileID: "Test.swift", filePath: #filePath, line: 1),
            maxActivations: nil, sequence: sequence, answer: .constant(StubResponse(data: Data())))
    }

    private static func candidates(_ table: StubTable, _ url: String) -> [String] {
        var names: [String] = []
        table.forEachCandidate(for: URL(string: url)) {
            names.append($0.name ?? "?"); return false
        }
        return names
    }

    @Test func candidatesComeNewestFirstAcrossPathHostAndUnindexedLists() {
        var table = StubTable()
        table.add(Self.descriptor(isPath("/a"), sequence: 1))
        table.add(Self.descriptor(isHost("h.test"), sequence: 2))
        table.add(Self.descriptor(.any, sequence: 3))
        table.add(Self.descriptor(isHost("h.test") && isPath("/a"), sequence: 4))
        table.add(Self.descriptor(isPath("/b"), sequence: 5))
        table.add(Self.descriptor(isHost("other.test"), sequence: 6))
        #expect(Self.candidates(table, "https://H.test/a") == ["#4", "#3", "#2", "#1"])
        #expect(Self.candidates(table, "https://h.test/b") == ["#5", "#3", "#2"])
        #expect(Self.candidates(table, "https://x.test/c") == ["#3"])
    }

    @Test func listsStayInSequenceOrderWhenAddsArriveOutOfOrder() {
        var table = StubTable()
        table.add(Self.descriptor(isPath("/a"), sequence: 7))
        table.add(Self.descriptor(isPath("/a"), sequence: 5))
        table.add(Self.descriptor(.any, sequence: 6))
        table.add(Self.descriptor(.any, sequence: 2))
        #expect(Self.candidates(table, "https://h.test/a") == ["#7", "#6", "#5", "#2"])
    }

    @Test func removingKeepsTheOthersInOrder() {
        var table = StubTable()
        let stubs = (1...4).map { Self.descriptor(isPath("/a"), sequence: UInt64($0)) }
        stubs.forEach { table.add($0) }
        let removed = table.remove(stubs[2])
        let removedAgain = table.remove(stubs[2])
        #expect(removed)
        #expect(!removedAgain)
        #expect(Self.candidates(table, "https://h.test/a") == ["#4", "#2", "#1"])
    }

    @Test(arguments: [
        "https://a.test", "https://a.test/", "https://a.test/users/", "https://a.test/x%20y/%2F",
        "https://a.test/p;q=1?x=1#f", "https://a.test//double//", "http://u:p@a.test:8080/p?q",
        "https://a.test/ü/é", "https://a.test/a/../b", "file:///tmp/x", "custom:path", "https://a.test/%zz",
        "https://a.test?x=1", "HTTPS://A.TEST/Up/",
    ])
    func indexPathIsThePathMatchersPath(url: String) throws {
        let parsed = try #require(URL(string: url))
        #expect(StubTable.indexPath(of: parsed) == pathOf(parsed))
    }

    @Test func indexPathOfARelativeURLIsResolved() throws {
        let base = try #require(URL(string: "https://a.test/api/"))
        let relative = try #require(URL(string: "users/1", relativeTo: base))
        #expect(StubTable.indexPath(of: relative) == pathOf(relative))
        #expect(StubTable.indexPath(of: relative) == "/api/users/1")
    }

    @Test func andMatcherKeepsEveryReasonAndTheFirstCapture() {
        let matcher = isPath("/users/:id") && isHost("a.test") && isMethod(.post)
        let refused = matcher.evaluate(StubRequest(URLRequest(url: URL(string: "https://b.test/users/42")!)))
        #expect(refused.failures.count == 2)
        #expect(refused.captures == ["id": "42"])
        var post = URLRequest(url: URL(string: "https://a.test/users/42")!)
        post.httpMethod = "POST"
        let accepted = matcher.evaluate(StubRequest(post))
        #expect(accepted.isMatch)
        #expect(accepted.captures == ["id": "42"])
        #expect(accepted.passed == 3)
    }
}

/// Hands a task to a stub's closure, which runs on URLSession's queues.
final class TaskHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: URLSessionTask?
    var task: URLSessionTask? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
