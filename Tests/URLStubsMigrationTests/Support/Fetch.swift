import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// The ways application code reads a response.
enum FetchAPI: String, CaseIterable, Sendable {
    case completionHandler
    case asyncData
    case delegate
}

/// What a request loaded through a real `URLSession` of a registry received.
struct FetchResult: @unchecked Sendable {
    var data: Data?
    var response: HTTPURLResponse?
    var error: (any Error)?

    var body: String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}

/// Loads `request` through a session `registry` makes, the way `api` says.
func fetch(_ request: URLRequest, from registry: StubRegistry, using api: FetchAPI = .completionHandler) async -> FetchResult {
    switch api {
    case .completionHandler:
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                continuation.resume(returning: FetchResult(data: data, response: response as? HTTPURLResponse, error: error))
            }.resume()
        }
    case .asyncData:
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            return FetchResult(data: data, response: response as? HTTPURLResponse)
        } catch {
            return FetchResult(error: error)
        }
    case .delegate:
        let collector = DelegateCollector()
        let session = registry.makeSession(delegate: collector)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            collector.finish = { continuation.resume(returning: $0) }
            session.dataTask(with: request).resume()
        }
    }
}

/// Loads a `GET` of `url` through a session `registry` makes.
func fetch(_ url: String, from registry: StubRegistry, using api: FetchAPI = .completionHandler) async -> FetchResult {
    await fetch(URLRequest(url: URL(string: url)!), from: registry, using: api)
}

/// A request with a method and a body.
func request(_ url: String, method: String = "GET", body: Data? = nil) -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    request.httpBody = body
    return request
}

/// Gathers a delegate task's body and ending. The session calls it on its serial delegate
/// queue, and `finish` is set before the task starts.
private final class DelegateCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    var finish: (FetchResult) -> Void = { _ in }
    private var data = Data()

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        self.data.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(FetchResult(data: data, response: task.response as? HTTPURLResponse, error: error))
    }
}
