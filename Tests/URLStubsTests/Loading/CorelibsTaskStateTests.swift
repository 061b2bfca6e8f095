import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

#if !URLSTUBS_APPLE_LOADING
/// The reads of corelibs' private task state behind the Linux loading path: each must give
/// exactly what the public getter or the slow, obvious way gives.
@Suite("Corelibs task state")
struct CorelibsTaskStateTests {
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
}
#endif
