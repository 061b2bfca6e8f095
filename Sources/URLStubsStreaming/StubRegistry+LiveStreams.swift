import Foundation
import URLStubs

extension StubRegistry {
    /// The live stream that declarations whose body is `.stream(name)` play, made on first use:
    /// the test writes it while the app reads (the rules of ``LiveStream`` apply: one request
    /// at a time reads it).
    ///
    /// ```swift
    /// try registry.stub(StubDeclaration(
    ///     request: RequestPattern(path: .equalTo("/prices")),
    ///     response: ResponseDefinition(headers: ["Content-Type": "text/event-stream"], body: .stream("prices"))))
    /// let prices = registry.liveStream(named: "prices")
    /// try prices.send(event: ServerSentEvent(data: "12"))
    /// ```
    ///
    /// A stream of that name another library attached (the UI-test link attaches the streams
    /// its test writes) is replaced.
    public func liveStream(named name: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) -> LiveStream {
        attachedStreamOwner(named: name) { () -> (StubBody.StreamedSource, LiveStream) in
            let stream = LiveStream(name: name, fileID: fileID, filePath: filePath, line: line)
            return ({ request, stub, wake in .pushed(try stream.connect(request, stub: stub, wake: wake)) }, stream)
        }
    }
}
