import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs

/// A streaming read through a delegate: a real session's data task, or a task of the model of
/// Apple's loading client.
struct StreamConnection {
    private let session: URLSession?
    private let task: URLSessionDataTask?
    #if !URLSTUBS_APPLE_LOADING
    private let model: AppleLoadingModel?
    private let modelTask: ModelTask?
    #endif

    init(_ request: URLRequest, registry: StubRegistry, api: FetchAPI, delegate: any URLSessionDataDelegate) {
        #if !URLSTUBS_APPLE_LOADING
        if api == .appleModel {
            let model = appleModel(for: registry, delegate: delegate)
            let task = model.dataTask(with: request)
            task.resume()
            self.model = model
            self.modelTask = task
            self.session = nil
            self.task = nil
            return
        }
        self.model = nil
        self.modelTask = nil
        #endif
        let session = registry.makeSession(delegate: delegate)
        let task = session.dataTask(with: request)
        task.resume()
        self.session = session
        self.task = task
    }

    func cancel() {
        task?.cancel()
        #if !URLSTUBS_APPLE_LOADING
        modelTask?.cancel()
        #endif
    }

    func close() {
        session?.finishTasksAndInvalidate()
    }

    func expectNoViolations(sourceLocation: SourceLocation = #_sourceLocation) {
        #if !URLSTUBS_APPLE_LOADING
        if let model { TestSupport.expectNoViolations(of: model, sourceLocation: sourceLocation) }
        #endif
    }
}

extension FetchAPI {
    /// The ways an app reads a stream as it arrives: a delegate, on corelibs and through the
    /// model of Apple's loading client.
    static let streamingAPIs: [FetchAPI] = FetchAPI.allCases.filter { $0 != .completionHandler && $0 != .asyncData }
}

/// The result of a fetch running in a task, once it is back.
final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: FetchResult?

    func set(_ result: FetchResult) { lock.lock(); stored = result; lock.unlock() }
    var result: FetchResult? { lock.lock(); defer { lock.unlock() }; return stored }
}

/// How long the tests of held responses, streams and waits wait for what must come: long,
/// since the whole suite runs in parallel on two cores and a request can start seconds late.
/// A wait returns as soon as its event arrives, so a passing test never waits this long.
let patientWait: TimeInterval = 120
