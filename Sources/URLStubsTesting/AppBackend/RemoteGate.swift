import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsTestRunnerLink

/// Holds the app's responses until the test releases them: the app's request arrives and
/// waits, the test looks at the app's loading state, then lets the answer go
/// (the app registry's named gate, `registry.gate(named:)`, driven from the test). Made by
/// ``AppBackend/makeGate(name:fileID:line:)``; a response it holds crosses as a declaration's
/// `"gate"`.
///
/// ```swift
/// let checkout = backend.makeGate(name: "checkout")
/// try await backend.stub(.post("/api/orders"), response: RemoteResponse(json: ["id": 7]).held(by: checkout))
/// app.buttons["Pay"].tap()
/// try await checkout.waitForRequest()
/// XCTAssert(app.activityIndicators["Paying"].exists)
/// try await checkout.release()
/// ```
///
/// Held requests queue up and are released oldest first. A held request waits without
/// blocking anything in the app, for at most its timeout; if the test process goes away, it
/// fails at once.
public struct RemoteGate: Sendable, CustomStringConvertible {
    let id: String
    /// `MyAppTests/CheckoutTests.swift:12`, where the test made it: the app's reports name it.
    let location: String
    private let backend: AppBackend

    init(id: String, location: String, backend: AppBackend) {
        self.id = id
        self.location = location
        self.backend = backend
    }

    /// `gate "gate-3: checkout"`.
    public var description: String { "gate \"\(id)\"" }

    /// Waits for the next request to reach the gate (the first call returns the first request
    /// held, the second the second, released or not since).
    /// - Throws: `TestRunnerLinkError.appFailed(command:message:)` with the app's report when
    ///   none arrived in time: every request the app saw, and why the matcher of each stub held
    ///   by this gate refused it, closest first.
    @discardableResult
    public func waitForRequest(timeout: TimeInterval = 30) async throws -> AppJournalEntry {
        var command = WireMessage(.waitForHeldRequest)
        command.gateID = id
        command.location = location
        command.timeout = timeout
        guard let entry = try await backend.command(command, doing: "wait for a request held by the \(self)", waiting: timeout).entry else {
            throw TestRunnerLinkError.appFailed(command: "wait for a request held by the \(self)", message: "its reply names no request")
        }
        return AppJournalEntry(entry)
    }

    /// Sends the oldest held request's own response.
    /// - Returns: `false` when no request was held.
    @discardableResult
    public func release() async throws -> Bool {
        try await release(replacingWith: nil)
    }

    /// Answers the oldest held request with `response` instead of its stub's.
    /// - Returns: `false` when no request was held.
    @discardableResult
    public func release(with response: RemoteResponse) async throws -> Bool {
        try await release(replacingWith: response)
    }

    /// Fails the oldest held request with `URLError(code)`, like a dropped connection.
    /// - Returns: `false` when no request was held.
    @discardableResult
    public func fail(_ code: URLError.Code) async throws -> Bool {
        var command = WireMessage(.failHeld)
        command.gateID = id
        command.errorCode = code.rawValue
        return try await backend.command(command, doing: "fail a request held by the \(self)").released ?? false
    }

    private func release(replacingWith response: RemoteResponse?) async throws -> Bool {
        if let problems = response?.problems, !problems.isEmpty { throw TestRunnerLinkError.invalidStub(problems: problems) }
        var command = WireMessage(.releaseHeld)
        command.gateID = id
        command.response = response.map { DeclarationForms.json(of: $0.definition) }
        return try await backend.command(command, doing: "release a request held by the \(self)").released ?? false
    }
}

extension RemoteResponse {
    /// This response, held by `gate` until the test releases it.
    public func held(by gate: RemoteGate) -> RemoteResponse {
        var copy = self
        copy.definition.gate = gate.id
        return copy
    }
}
