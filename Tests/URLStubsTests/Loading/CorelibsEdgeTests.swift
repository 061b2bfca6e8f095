import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import TestSupport

#if !URLSTUBS_APPLE_LOADING
/// The Linux edge, contained: what a session made by `makeSession()` is known by, and what
/// happens when corelibs' private layout is not recognised.
@Suite("Corelibs edge")
struct CorelibsEdgeTests {
    /// `makeSession()` records its session's configuration, delegate and delegate queue when it
    /// makes it, in the slot of a protocol class of the session's own; a session given by
    /// `install(into:)` answers through the registry's class, which has no record.
    @Test func madeSessionsAreRecordedWhenMade() throws {
        let registry = StubRegistry()
        let queue = OperationQueue()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 7
        let made = registry.makeSession(configuration: configuration, delegate: DelegateRecorder(), delegateQueue: queue)
        defer { made.finishTasksAndInvalidate() }
        let record = try #require(Self.record(of: made))
        #expect(record.hasDelegate)
        #expect(record.delegateQueue === queue)
        #expect(record.session === made)
        #expect(record.configuration.timeoutIntervalForRequest == 7)
        // The caller's configuration has the registry installed, as `install(into:)` would.
        #expect(configuration.protocolClasses?.first.map(ObjectIdentifier.init) == ObjectIdentifier(registry.protocolClass))

        let installed = URLSessionConfiguration.ephemeral
        registry.install(into: installed)
        let given = URLSession(configuration: installed)
        defer { given.finishTasksAndInvalidate() }
        #expect(Self.record(of: given) == nil)
    }

    /// The record a session's first protocol class carries, if a registry made the session.
    private static func record(of session: URLSession) -> MadeSession? {
        guard let protocolClass = session.configuration.protocolClasses?.first as? StubURLProtocol.Type,
            case .registry(_, _, let record) = ProtocolClassPool.lookup(protocolClass)
        else { return nil }
        return record
    }

    /// In one made session with a delegate, a task created without a completion handler gets
    /// the body in chunks through the delegate, and one created with a handler gets it whole;
    /// upload tasks' bodies reach the stub whichever way they were created.
    @Test func aMadeSessionKnowsHowEachTaskWasCreated() async throws {
        let registry = StubRegistry()
        let body = patternData(600_000)
        registry.stub(isPath("/paced")) { _ in StubResponse(data: body).requestTime(0, responseTime: 0.2) }
        registry.stub(isPath("/echo")) { request in StubResponse(data: request.body ?? Data("no body".utf8)) }
        let recorder = DelegateRecorder()
        let session = registry.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        let url = URL(string: "https://edge.test/paced")!
        let delegated = await recorder.run(session.dataTask(with: url))
        #expect(delegated.data == body)
        #expect(delegated.chunks.count > 1, "a delegate task sees the paced chunks")
        let handled = await fetchWithCompletionHandler(URLRequest(url: url), session: session)
        #expect(handled.data == body, "a completion handler gets the whole body: \(String(describing: handled.error))")

        var upload = URLRequest(url: URL(string: "https://edge.test/echo")!)
        upload.httpMethod = "POST"
        let uploaded = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            session.uploadTask(with: upload, from: Data("sent".utf8)) { data, _, error in
                continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) } ?? "\(String(describing: error))")
            }.resume()
        }
        #expect(uploaded == "sent")
        let plain = registry.makeSession()
        defer { plain.finishTasksAndInvalidate() }
        let (data, _) = try await plain.upload(for: upload, from: Data("async".utf8))
        #expect(String(decoding: data, as: UTF8.self) == "async", "an async upload's body is read from its task")
    }

    /// The configuration recorded for a made session is the one its requests go by: its
    /// timeout applies to a stub that never answers.
    @Test func aMadeSessionsRequestsUseItsRecordedConfiguration() async throws {
        let registry = StubRegistry()
        registry.stub(isPath("/never")) { _ in .neverResponding() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.3
        configuration.httpAdditionalHeaders = ["X-Made": "yes"]
        registry.stub(isPath("/headers") && hasHeaderNamed("X-Made", value: "yes")) { _ in StubResponse(data: Data("seen".utf8)) }
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let timedOut = await fetchWithCompletionHandler(URLRequest(url: URL(string: "https://edge.test/never")!), session: session)
        #expect(timedOut.urlError?.code == .timedOut)
        let headers = await fetchWithCompletionHandler(URLRequest(url: URL(string: "https://edge.test/headers")!), session: session)
        #expect(headers.body == "seen", "the configuration's headers reach the stub: \(String(describing: headers.error))")
    }

    /// When corelibs' private layout is not recognised (here: refused, as a toolchain that
    /// changed it would be), the safe fallback answers correctly: callbacks inside
    /// `startLoading`, the body whole, for a one-liner, a closure stub and a paced body, through
    /// a completion handler, `async` `data(for:)` and a delegate (which gets the body in one
    /// chunk).
    @Test(arguments: [FetchAPI.completionHandler, .asyncData, .delegate])
    func anUnrecognisedLayoutFallsBackAndStillAnswers(_ api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.change { $0.refusesCorelibsLayouts = true }
        let body = patternData(200_000)
        registry.stub(.get, "https://edge.test/constant", json: ["ok": true])
        registry.stub(isPath("/closure")) { _ in StubResponse(data: Data("closure".utf8), statusCode: 201) }
        registry.stub(isPath("/paced")) { _ in StubResponse(data: body).requestTime(0.05, responseTime: 0.2) }
        let constant = await fetch("https://edge.test/constant", from: registry, using: api)
        #expect(constant.statusCode == 200)
        #expect(constant.body == #"{"ok":true}"#)
        let closure = await fetch("https://edge.test/closure", from: registry, using: api)
        #expect(closure.statusCode == 201)
        #expect(closure.body == "closure")
        let paced = await fetch("https://edge.test/paced", from: registry, using: api)
        #expect(paced.data == body, "the whole body, byte-exact: \(String(describing: paced.error))")
        if api == .delegate { #expect(paced.chunks.count == 1, "the fallback sends the body whole") }
        #expect(registry.journal.count == 3)
        #expect(registry.journal.allSatisfy { $0.errorDescription == nil })
    }
}
#endif
