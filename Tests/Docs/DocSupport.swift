// Stand-ins for the app under test that the documentation's code blocks talk to. Only
// Tests/Docs/check_readme.py compiles this file, beside the blocks; no target of the package does.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct User: Decodable, Sendable {
    var id: Int
    var name: String
}

struct Profile: Decodable, Sendable {
    var name: String
}

/// Loads `GET https://api.example.com/users` (`{"users": [{"id": 1, "name": "Ada"}]}`).
struct UsersClient: Sendable {
    let session: URLSession

    func load() async throws -> [User] {
        struct List: Decodable { var users: [User] }
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users")!)
        return try JSONDecoder().decode(List.self, from: data).users
    }
}

/// Loads `GET https://api.example.com/me` (`{"name": "Ada"}`).
struct ProfileClient: Sendable {
    let session: URLSession

    func load() async throws -> Profile {
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/me")!)
        return try JSONDecoder().decode(Profile.self, from: data)
    }
}

/// Loads `GET https://api.example.com/users/<id>`.
struct APIClient: Sendable {
    let session: URLSession

    func user(id: Int) async throws -> User {
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/\(id)")!)
        return try JSONDecoder().decode(User.self, from: data)
    }
}

/// A screen model: `refresh()` loads `GET https://api.example.com/feed` (`{"items": [1, 2]}`),
/// with `isLoading` true meanwhile.
final class FeedModel: @unchecked Sendable {
    private let session: URLSession
    private let lock = NSLock()
    private var loading = false
    private var loaded: [Int] = []

    init(session: URLSession) { self.session = session }

    var isLoading: Bool { lock.withLock { loading } }
    var items: [Int] { lock.withLock { loaded } }

    func refresh() async {
        struct Feed: Decodable { var items: [Int] }
        lock.withLock { loading = true }
        defer { lock.withLock { loading = false } }
        guard let (data, _) = try? await session.data(from: URL(string: "https://api.example.com/feed")!),
            let feed = try? JSONDecoder().decode(Feed.self, from: data)
        else { return }
        lock.withLock { loaded = feed.items }
    }
}

/// Reads `GET https://api.example.com/prices` (server-sent events whose data is
/// `{"teapot": <price>}`) and keeps the prices it has read.
final class PriceFeed: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let configuration: URLSessionConfiguration
    private let lock = NSLock()
    private var received = ""
    private var session: URLSession?

    init(session: URLSession) { self.configuration = session.configuration }

    var prices: [Int] {
        lock.withLock {
            received.components(separatedBy: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("data: ") else { return nil }
                let json = Data(line.dropFirst(6).utf8)
                return (try? JSONSerialization.jsonObject(with: json) as? [String: Int])?["teapot"]
            }
        }
    }

    func connect() {
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        lock.withLock { self.session = session }
        session.dataTask(with: URL(string: "https://api.example.com/prices")!).resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received += String(decoding: data, as: UTF8.self) }
    }
}

/// An app that reports what the user does to `POST https://api.example.com/analytics`.
struct ShopApp: Sendable {
    let session: URLSession

    func trackPurchase() {
        var request = URLRequest(url: URL(string: "https://api.example.com/analytics")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"event":"purchase"}"#.utf8)
        session.dataTask(with: request).resume()
    }
}

/// Polls `condition` until it holds, for at most `timeout` seconds.
func waitUntil(timeout: TimeInterval = 5, _ condition: @Sendable () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { throw URLError(.timedOut) }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}
