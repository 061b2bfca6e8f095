import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

/// The fast paths behind a request: the stub index, and (on Linux) the reads of corelibs'
/// private task state. Each must give exactly what the slow, obvious way gives.
@Suite("Lookup and task state")
struct LookupAndTaskStateTests {
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

    #if !URLSTUBS_APPLE_LOADING
    // Linux-only: these read corelibs' private task state, which only the corelibs path uses.
    final class Holder {
        let strong: NSObject
        weak var weakReference: NSObject?
        var optional: NSObject?
        init(_ object: NSObject) { strong = object; weakReference = object; optional = object }
    }

    /// A weak field's storage is not a reference: the field table alone cannot tell, so the
    /// check against a Mirror must leave it out.
    @Test func storedFieldsAreCheckedAgainstAMirror() throws {
        let object = NSObject()
        let holder = Holder(object)
        let fields = StoredField.find(
            ["strong", "weakReference", "optional", "missing"],
            references: ["strong", "weakReference", "optional"], in: holder)
        #expect(fields["weakReference"] == nil)
        #expect(fields["missing"] == nil)
        let strong = try #require(fields["strong"])
        #expect(strong.loadObject(from: holder) === object)
        #expect(strong.load(NSObject.self, from: holder) === object)
        #expect(strong.load(String.self, from: holder) == nil, "a field is only read as its declared type")
        #expect(try #require(fields["optional"]).loadObject(from: holder) === object)
    }

    /// Fails loudly when a toolchain changes corelibs' private layout: then the safe
    /// fallbacks apply (whole bodies, no upload body, callbacks inside startLoading).
    @Test func corelibsLayoutIsReadableOnThisToolchain() async throws {
        let registry = StubRegistry()
        let body = patternData(300_000)
        registry.stub(isPath("/paced")) { _ in StubResponse(data: body).requestTime(0, responseTime: 0.2) }
        registry.stub(isMethod(.post) && hasBody(Data("payload".utf8))) { _ in StubResponse(data: Data("ok".utf8)) }
        let delegated = await fetch("https://layout.test/paced", from: registry, using: .delegate)
        #expect(delegated.data == body)
        #expect(delegated.chunks.count > 2, "a delegate gets paced chunks: the task's behaviour was read")
        let whole = await fetch("https://layout.test/paced", from: registry, using: .completionHandler)
        #expect(whole.data == body)
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        var upload = URLRequest(url: URL(string: "https://layout.test/upload")!)
        upload.httpMethod = "POST"
        let (data, _) = try await session.upload(for: upload, from: Data("payload".utf8))
        #expect(String(decoding: data, as: UTF8.self) == "ok", "the upload body was read from the task")
        #expect(CorelibsTaskState.layoutProblems.isEmpty, "corelibs layout changed: \(CorelibsTaskState.layoutProblems)")
    }

    /// The cancel guard reads the task's stored state directly, on the work queue: it must
    /// see `.canceling` where corelibs has set it (before `stopLoading`) and nothing else before.
    /// The cancel guard reads corelibs' stored `_state` directly: it must say what the public
    /// getter says, `.canceling` included. `cancel()` sets `.canceling` before it returns; the
    /// task completes in a later step of its queue, so the two reads are compared until then.
    @Test func storedTaskStateSaysWhatThePublicGetterSays() async throws {
        sharedStubsActivated  // invalidateAndCancel() creates URLSession.shared on corelibs
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "https://state.test/")!)
        let field = try #require(TaskLayout.of(task).state, "URLSessionTask._state not found: the cancel guard falls back to the getter")
        #expect(field.load(URLSessionTask.State.self, from: task) == .suspended)
        #expect(!CorelibsTaskState.isCanceling(task))
        task.cancel()
        var sawCanceling = false
        for _ in 0..<1_000 {
            // The guard first: states only move forward, so if the later reads still say
            // `.canceling`, so did this one.
            let guarded = CorelibsTaskState.isCanceling(task)
            let direct = field.load(URLSessionTask.State.self, from: task)
            let published = task.state
            guard direct == published, direct == .canceling else { break }
            #expect(guarded)
            sawCanceling = true
        }
        let settled = (field.load(URLSessionTask.State.self, from: task), task.state)
        #expect(sawCanceling || settled.0 == settled.1, "the stored field and the getter disagree: \(settled)")
    }
    #endif
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
