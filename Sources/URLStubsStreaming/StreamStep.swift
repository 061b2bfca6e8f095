import Foundation
import URLStubs

/// One step of a scripted stream body: a write, or a pause before the next one.
///
/// A script is a live stream written on a schedule instead of by the test, for fixtures that
/// replay a feed with its rhythm:
///
/// ```swift
/// registry.stub(isPath("/progress")) { _ in
///     .stream(script: [
///         .event(ServerSentEvent(event: "progress", data: "10")),
///         .wait(0.5),
///         .event(ServerSentEvent(event: "progress", data: "100")),
///     ], headers: ["Content-Type": "text/event-stream"])
/// }
/// ```
///
/// Pauses count from the response head. A script is paced like other bodies on top of its
/// pauses: `.requestTime(0, responseTime: 2)` spreads its bytes over two seconds, `.downloadSpeed(.edge)` sends
/// them at that speed; each write still arrives whole. The body finishes after the last step
/// (or fails, at a ``fail(_:)`` step). As with a ``LiveStream``, Linux completion handlers and
/// `async` calls receive the whole body when the last write would have arrived.
public struct StreamStep: Sendable {
    enum Kind: Sendable {
        case data(Data)
        case event(ServerSentEvent)
        case wait(TimeInterval)
        case failure(any Error)
    }

    let kind: Kind

    /// Sends `data` as it is.
    public static func data(_ data: Data) -> StreamStep { StreamStep(kind: .data(data)) }
    /// Sends `text` as UTF-8.
    public static func text(_ text: String) -> StreamStep { StreamStep(kind: .data(Data(text.utf8))) }
    /// Sends one server-sent event, framed for `text/event-stream`.
    public static func event(_ event: ServerSentEvent) -> StreamStep { StreamStep(kind: .event(event)) }
    /// Waits `seconds` before the next step.
    public static func wait(_ seconds: TimeInterval) -> StreamStep { StreamStep(kind: .wait(max(0, seconds))) }
    /// Fails the request with `error`, like a connection lost mid-stream; later steps are not sent.
    public static func fail(_ error: any Error) -> StreamStep { StreamStep(kind: .failure(error)) }

    /// `steps` as the engine plays a script: each write after its pause. An event that cannot
    /// be framed fails the request of the stub described by `stub`.
    static func script(of steps: [StreamStep], stub: String) throws -> [(pause: TimeInterval, write: StreamedWrite)] {
        var script: [(pause: TimeInterval, write: StreamedWrite)] = []
        var pause: TimeInterval = 0
        for step in steps {
            let write: StreamedWrite
            switch step.kind {
            case .wait(let seconds):
                pause += seconds
                continue
            case .data(let data):
                write = .data(data)
            case .event(let event):
                do {
                    write = .data(try event.encoded())
                } catch {
                    throw StubError.library(StreamFailure.invalidStreamStep(stub: stub, reason: "\(error)"))
                }
            case .failure(let error):
                write = .failure(error)
            }
            script.append((pause, write))
            pause = 0
        }
        // A pause after the last write holds the stream open that long before it ends.
        script.append((pause, .finish))
        return script
    }
}

extension StubResponse {
    /// A response whose body the test writes while the app reads it (see ``LiveStream``). The
    /// head goes out at once, without `Content-Length`; give a `Content-Type` in `headers`
    /// (`application/x-ndjson` for ``LiveStream/sendJSONLine(_:encoder:)``, `text/event-stream`
    /// for server-sent events).
    ///
    /// ```swift
    /// let lines = LiveStream()
    /// registry.stub(isPath("/export")) { _ in .stream(lines, headers: ["Content-Type": "application/x-ndjson"]) }
    /// let prices = LiveStream(name: "prices")
    /// registry.stub(isPath("/prices")) { _ in .stream(prices, headers: ["Content-Type": "text/event-stream"]) }
    /// ```
    public static func stream(_ stream: LiveStream, statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        StubResponse(
            streamedBody: { request, stub, wake in .pushed(try stream.connect(request, stub: stub, wake: wake)) }, statusCode: statusCode,
            headers: headers)
    }

    /// A response whose body is written step by step on a schedule (see ``StreamStep``); give
    /// a `Content-Type` in `headers` (`text/event-stream` for ``StreamStep/event(_:)`` steps).
    public static func stream(script steps: [StreamStep], statusCode: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        StubResponse(
            streamedBody: { _, stub, _ in .scripted(try StreamStep.script(of: steps, stub: stub)) }, statusCode: statusCode, headers: headers)
    }
}
