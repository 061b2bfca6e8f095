import Foundation
import URLStubs

/// A stub the test added to the app; ``AppBackend/remove(_:)`` takes it away, and
/// ``expect(_:)`` says how often the app should use it.
public struct RemoteStub: Sendable, Hashable, CustomStringConvertible {
    let id: String
    /// The name given to ``AppBackend/stub(_:name:times:response:fileID:line:)``.
    public let name: String?
    /// What it matches, in words.
    public let matcherDescription: String
    private let backend: BackendIdentity

    init(id: String, name: String?, matcher: RemoteMatcher, backend: AppBackend) {
        self.id = id
        self.name = name
        self.matcherDescription = matcher.description
        self.backend = BackendIdentity(backend: backend)
    }

    /// `"cart" (method is GET and path is "/api/cart")`.
    public var description: String {
        name.map { "\"\($0)\" (\(matcherDescription))" } ?? matcherDescription
    }

    /// Says how many times the app's stub is expected to answer: ``AppBackend/verify()`` reports
    /// it when the app used it more or less often, as `StubDescriptor.expect(_:)` does in process.
    ///
    /// ```swift
    /// try await backend.stub(.post("/api/orders"), response: RemoteResponse(statusCode: 201)).expect(.once)
    /// try await backend.stub(.delete("/api/account"), response: RemoteResponse(statusCode: 204)).expect(.never)
    /// ```
    /// - Returns: This stub.
    /// - Throws: `TestRunnerLinkError.appFailed(command:message:)` when the app no longer has the stub.
    @discardableResult
    public func expect(_ count: ExpectedCount) async throws -> RemoteStub {
        try await backend.backend.expect(count, of: self)
        return self
    }
}

/// The backend a stub belongs to, equal only to itself: two backends number their stubs alike.
private struct BackendIdentity: Sendable, Hashable {
    let backend: AppBackend

    static func == (lhs: BackendIdentity, rhs: BackendIdentity) -> Bool { lhs.backend === rhs.backend }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(backend)) }
}

/// Numbers for identifiers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }
}
