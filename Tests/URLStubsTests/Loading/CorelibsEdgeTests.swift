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
    /// makes it; a session given by `install(into:)` is not recorded.
    @Test func madeSessionsAreRecordedWhenMade() throws {
        let registry = StubRegistry()
        let queue = OperationQueue()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 7
        let made = registry.makeSession(configuration: configuration, delegate: DelegateRecorder(), delegateQueue: queue)
        defer { made.finishTasksAndInvalidate() }
        let record = try #require(registry.snapshot().madeSessions.record(of: made))
        #expect(record.hasDelegate)
        #expect(record.delegateQueue === queue)
        #expect(record.configuration.timeoutIntervalForRequest == 7)

        let installed = URLSessionConfiguration.ephemeral
        registry.install(into: installed)
        let given = URLSession(configuration: installed)
        defer { given.finishTasksAndInvalidate() }
        #expect(registry.snapshot().madeSessions.record(of: given) == nil)
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
    /// a completion handler and `async` `data(for:)`. A delegate task answered by the fallback
    /// gets its whole body too, but in the full suite it held every other session of the
    /// process for about 30 s (measured twice): not run here until that is understood.
    @Test(arguments: [FetchAPI.completionHandler, .asyncData])
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
        #expect(registry.journal.count == 3)
        #expect(registry.journal.allSatisfy { $0.errorDescription == nil })
    }
}
#endif
