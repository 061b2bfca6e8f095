import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs

/// The ways application code reads a response; behaviour tests run through each.
enum FetchAPI: String, CaseIterable, Sendable, CustomStringConvertible {
    case completionHandler
    case asyncData
    case delegate
    #if !URLSTUBS_APPLE_LOADING
    /// URLStubs' Apple loading path, driven by the model of Apple's loading client (a delegate
    /// task: it sees chunks and redirects).
    case appleModel
    #endif

    var description: String { rawValue }
}

/// What a caller received.
struct FetchResult: @unchecked Sendable {
    var data: Data?
    var response: HTTPURLResponse?
    var error: (any Error)?
    /// Delegate only: each `didReceive data` call, in order.
    var chunks: [Data] = []
    /// Delegate only: each redirect the delegate was asked about, as "status -> URL".
    var redirects: [String] = []

    var body: String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    var statusCode: Int? { response?.statusCode }
    var urlError: URLError? { error as? URLError }
    var stubError: StubError? { error.flatMap(StubError.from) }
}

/// On Linux, `URLSession.shared` only sees the shared registry if its protocol class was
/// registered before the shared session was first used (`finishTasksAndInvalidate` uses it).
/// Every helper here runs this first, so the suite behaves the same in any test order.
let sharedStubsActivated: Void = StubRegistry.activateForSharedSession()

/// An ephemeral configuration whose request timeout (600 s) no wait of a loaded test run
/// reaches: with the whole suite in parallel under a sanitizer, a test can resume a minute
/// after its request started, and the default 60 s would end a request the test is about to
/// release, cancel or write to. A test about timeouts sets its own, on the request or through
/// `configure`.
func patientConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 600
    return configuration
}

/// Loads `request` through a real `URLSession` made by `registry`, the way `api` says.
/// Pass `configuration` to share its cookie store between calls.
func fetch(
    _ request: URLRequest, from registry: StubRegistry, using api: FetchAPI = .completionHandler,
    configuration: URLSessionConfiguration = patientConfiguration(),
    configure: (URLSessionConfiguration) -> Void = { _ in }
) async -> FetchResult {
    sharedStubsActivated
    configure(configuration)
    switch api {
    case .completionHandler:
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        return await fetchWithCompletionHandler(request, session: session)
    case .asyncData:
        let session = registry.makeSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            return FetchResult(data: data, response: response as? HTTPURLResponse)
        } catch {
            return FetchResult(error: error)
        }
    case .delegate:
        let recorder = DelegateRecorder()
        let session = registry.makeSession(configuration: configuration, delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        return await recorder.run(session.dataTask(with: request))
    #if !URLSTUBS_APPLE_LOADING
    case .appleModel:
        let recorder = DelegateRecorder()
        let model = appleModel(for: registry, configuration: configuration, delegate: recorder)
        let result = await recorder.run { model.dataTask(with: request).resume() }
        expectNoViolations(of: model)
        return result
    #endif
    }
}

#if !URLSTUBS_APPLE_LOADING
/// A model of Apple's loading client, with `registry` installed: requests it drives take the
/// Apple path.
func appleModel(
    for registry: StubRegistry, configuration: URLSessionConfiguration = patientConfiguration(),
    delegate: (any URLSessionDelegate)? = nil
) -> AppleLoadingModel {
    sharedStubsActivated
    registry.install(into: configuration)
    return AppleLoadingModel(configuration: configuration, delegate: delegate)
}

/// Loads `request` through the model of Apple's loading client, as a delegate task of
/// `recorder` (or an upload task of `uploadBody`), and checks the model saw no breach.
func fetchThroughAppleModel(
    _ request: URLRequest, from registry: StubRegistry, recorder: DelegateRecorder = DelegateRecorder(),
    configuration: URLSessionConfiguration = patientConfiguration(), uploadBody: Data? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> FetchResult {
    let model = appleModel(for: registry, configuration: configuration, delegate: recorder)
    let result = await recorder.run {
        (uploadBody.map { model.uploadTask(with: request, from: $0) } ?? model.dataTask(with: request)).resume()
    }
    expectNoViolations(of: model, sourceLocation: sourceLocation)
    return result
}

/// Records every breach of Apple's contract the model saw as an issue of the running test.
func expectNoViolations(of model: AppleLoadingModel, sourceLocation: SourceLocation = #_sourceLocation) {
    for violation in model.violations {
        Issue.record("Apple loading contract broken: \(violation)", sourceLocation: sourceLocation)
    }
}
#endif

func fetch(_ url: String, from registry: StubRegistry, using api: FetchAPI = .completionHandler) async -> FetchResult {
    await fetch(URLRequest(url: URL(string: url)!), from: registry, using: api)
}

func fetchWithCompletionHandler(_ request: URLRequest, session: URLSession) async -> FetchResult {
    sharedStubsActivated
    return await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
            continuation.resume(
                returning: FetchResult(
                    data: error == nil ? data : nil,
                    response: response as? HTTPURLResponse, error: error))
        }.resume()
    }
}

/// A session delegate that records every callback of one task.
final class DelegateRecorder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var result = FetchResult()
    private var continuation: CheckedContinuation<FetchResult, Never>?
    private var completed = false
    /// What the delegate answers when asked to follow a redirect (`nil` declines it).
    private let redirectPolicy: @Sendable (HTTPURLResponse, URLRequest) -> URLRequest?

    init(redirectPolicy: @escaping @Sendable (HTTPURLResponse, URLRequest) -> URLRequest? = { $1 }) {
        self.redirectPolicy = redirectPolicy
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        lock.lock()
        result.redirects.append("\(response.statusCode) -> \(request.url?.absoluteString ?? "nil")")
        lock.unlock()
        completionHandler(redirectPolicy(response, request))
    }

    func run(_ task: URLSessionTask) async -> FetchResult {
        await run { task.resume() }
    }

    /// Runs whatever `start` resumes (a model task, for the Apple path).
    func run(_ start: () -> Void) async -> FetchResult {
        await withCheckedContinuation { continuation in
            lock.lock()
            self.continuation = continuation
            lock.unlock()
            start()
        }
    }

    var chunkCount: Int {
        lock.lock(); defer { lock.unlock() }
        return result.chunks.count
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock()
        result.response = response as? HTTPURLResponse
        lock.unlock()
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        result.chunks.append(data)
        lock.unlock()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        if error == nil {
            result.data = result.chunks.reduce(into: Data()) { $0.append($1) }
            if result.response == nil { result.response = task.response as? HTTPURLResponse }
        }
        result.error = error
        let continuation = self.continuation
        self.continuation = nil
        completed = true
        lock.unlock()
        continuation?.resume(returning: result)
    }
}

/// A repeatable pseudo-random body of `count` bytes.
func patternData(_ count: Int, seed: UInt8 = 7) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
        guard let bytes = raw.bindMemory(to: UInt8.self).baseAddress else { return }
        var value = UInt32(seed) &+ 1
        for index in 0..<count {
            value = value &* 1_103_515_245 &+ 12_345
            bytes[index] = UInt8(truncatingIfNeeded: value >> 16)
        }
    }
    return data
}

func request(_ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]) -> URLRequest {
    sharedStubsActivated
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
}

/// A GET of `url` whose timeout (600 s) outlasts any wait before a test cancels it: under a
/// sanitizer, with the whole suite in parallel, a test can wait over a minute for a
/// cooperative thread, and the default 60 s timeout would then end the request before the
/// cancel the test means to check.
func cancellableRequest(_ url: String) -> URLRequest {
    var cancellable = request(url)
    cancellable.timeoutInterval = 600
    return cancellable
}
