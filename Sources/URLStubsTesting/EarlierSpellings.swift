import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsServer
import URLStubsTestRunnerLink

// URLStubsTesting's earlier spellings of a UI test's responses, each forwarding to the
// builder that mirrors `StubResponse`. They stay in this module, the one place outside
// URLStubsMigration that may declare deprecated API (Tests/API/public_api.py): moving them
// would make URLStubsMigration import the test frameworks URLStubsTesting links.

extension RemoteResponse {
    /// No body: `RemoteResponse(statusCode:headers:)`.
    @available(*, deprecated, renamed: "init(statusCode:headers:)")
    public static func status(_ status: Int, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(statusCode: status, headers: HeaderFields(headers))
    }

    /// A UTF-8 text body: `RemoteResponse(string:statusCode:headers:)`.
    @available(*, deprecated, renamed: "init(string:statusCode:headers:)")
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(string: text, statusCode: status, headers: HeaderFields(headers))
    }

    /// A JSON body from `JSONSerialization` values: `RemoteResponse(json:statusCode:headers:)`.
    @available(*, deprecated, renamed: "init(json:statusCode:headers:)")
    public static func json(_ object: Any, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(json: object, statusCode: status, headers: HeaderFields(headers))
    }

    /// A body of bytes: `RemoteResponse(data:statusCode:headers:)`.
    @available(*, deprecated, renamed: "init(data:statusCode:headers:)")
    public static func data(_ data: Data, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(data: data, statusCode: status, headers: HeaderFields(headers))
    }

    /// A fixture file the app finds: `RemoteResponse(fixture:statusCode:headers:)`.
    @available(*, deprecated, renamed: "init(fixture:statusCode:headers:)")
    public static func fixture(_ name: String, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        RemoteResponse(fixture: name, statusCode: status, headers: HeaderFields(headers))
    }

    /// The request fails with `URLError(code)`: `RemoteResponse(error: URLError(code))`.
    @available(*, deprecated, message: "use RemoteResponse(error: URLError(code))")
    public static func error(_ code: URLError.Code) -> RemoteResponse {
        RemoteResponse(error: URLError(code))
    }

    /// A `text/event-stream` live body: `stream(_:statusCode:headers:)` with that
    /// `Content-Type` (this spelling also adds `Cache-Control: no-cache` unless given).
    @available(*, deprecated, message: "use .stream(liveStream, headers: [\"Content-Type\": \"text/event-stream\"])")
    public static func eventStream(_ stream: RemoteLiveStream, status: Int = 200, headers: [String: String] = [:]) -> RemoteResponse {
        .stream(stream, statusCode: status, headers: StubResponse.eventStreamHeaders(HeaderFields(headers)))
    }

    /// A live body as written: `stream(_:statusCode:headers:)`. (`status` has no default
    /// here: a call without it is the current spelling, which sends the same.)
    @available(*, deprecated, renamed: "stream(_:statusCode:headers:)")
    public static func stream(_ stream: RemoteLiveStream, status: Int, headers: [String: String] = [:]) -> RemoteResponse {
        .stream(stream, statusCode: status, headers: HeaderFields(headers))
    }
}

/// Why an `AppBackend` call failed: `TestRunnerLinkError`, the one error of the UI-test link on
/// both sides, holds these cases under the same names (`appNeverConnected`, `appDisconnected`,
/// `appFailed`, `invalidStub`, `closed`), except `noAnswer(command:timeout:)`, which is
/// `TestRunnerLinkError.appDidNotAnswer(command:timeout:)`.
@available(*, deprecated, renamed: "TestRunnerLinkError", message: "one error for the UI-test link, the app's side and the test's")
public typealias AppBackendError = TestRunnerLinkError

extension TestRunnerLinkError {
    /// The app did not answer `command` in time: `appDidNotAnswer(command:timeout:)`.
    ///
    /// - Important: This builds the value; it cannot be matched. No case is named `noAnswer`
    ///   (the app's side is `testRunnerDidNotAnswer(address:timeout:)`), so a pattern such as
    ///   `catch AppBackendError.noAnswer(let command, let timeout)` does not compile: write
    ///   `catch TestRunnerLinkError.appDidNotAnswer(let command, let timeout)`.
    @available(*, deprecated, renamed: "appDidNotAnswer(command:timeout:)")
    public static func noAnswer(command: String, timeout: TimeInterval) -> TestRunnerLinkError {
        .appDidNotAnswer(command: command, timeout: timeout)
    }
}

extension AppBackend {
    /// Removes every stub the test added: `removeAll()`, the in-process registry's name.
    @available(*, deprecated, renamed: "removeAll()")
    public func removeAllStubs() async throws { try await removeAll() }

    /// Activates the app's scenario `name`: `activate(_:)`, the in-process registry's name.
    @available(*, deprecated, renamed: "activate(_:)")
    public func activateScenario(_ name: String) async throws { try await activate(name) }

    /// Deactivates the app's scenario `name`: `deactivate(_:)`, the in-process registry's name.
    @available(*, deprecated, renamed: "deactivate(_:)")
    @discardableResult
    public func deactivateScenario(_ name: String) async throws -> Bool { try await deactivate(name) }
}

/// The running test's registry and server: `StubRegistry.current` and `StubServer.current`
/// say the same, one spelling each.
@available(*, deprecated, message: "use StubRegistry.current and StubServer.current")
public enum StubScope {
    /// The current test's registry, or `nil` outside a test with a stubbing trait.
    @available(*, deprecated, renamed: "StubRegistry.current")
    public static var registry: StubRegistry? { TestScope.registry }
    /// The current test's server, or `nil` outside a test with `.stubbed(serving: true)`.
    @available(*, deprecated, renamed: "StubServer.current")
    public static var server: StubServer? { TestScope.server }
}
