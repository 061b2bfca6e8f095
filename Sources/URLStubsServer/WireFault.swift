import Foundation
import URLStubs

/// A stub's network fault (``URLStubs/ResponseDefinition/NetworkFault``) as the server's socket
/// plays it, the way WireMock's faults reach an HTTP client:
///
/// - `connectionReset`: nothing, then a reset (RST): the client reads "connection reset by peer";
/// - `emptyResponse`: nothing, then an orderly close (FIN): "empty reply from server";
/// - `malformedResponseChunk`: the stub's status line with `Transfer-Encoding: chunked`, then a
///   chunk whose size is not hexadecimal, then a close: the client fails reading the body;
/// - `randomDataThenClose`: random bytes that are not HTTP, then a close.
///
/// In process the same faults are the `URLError`s the fault names; this is what a client of
/// the loopback server (curl, a web view, another process) sees instead.
struct WireFault {
    let fault: ResponseDefinition.NetworkFault

    /// The fault a failure carries, if it is one.
    init?(failure error: any Error) {
        guard let fault = ResponseDefinition.NetworkFault(carriedBy: error) else { return nil }
        self.fault = fault
    }

    /// The fault a head comes with (a malformed chunk follows its head), played instead of it.
    init?(head: ResponseHead) {
        guard case .failAfterBytes(_, let failure) = head.response.action,
            let fault = ResponseDefinition.NetworkFault(carriedBy: failure.error), fault == .malformedResponseChunk
        else { return nil }
        self.fault = fault
    }

    /// Writes the fault on `connection` and ends it; `status` is the stub's.
    func play(on connection: ServerConnection, status: Int) {
        switch fault {
        case .connectionReset:
            connection.exchangeEnded(.reset)
        case .emptyResponse:
            connection.exchangeEnded(.afterAnswers)
        case .malformedResponseChunk:
            connection.send(WireAnswer.head(status: status, fields: [("Transfer-Encoding", "chunked"), ("Connection", "close")]))
            connection.send(Array("lorem\r\n".utf8) + Self.randomBytes(16))
            connection.exchangeEnded(.afterAnswers)
        case .randomDataThenClose:
            connection.send(Self.randomBytes(64))
            connection.exchangeEnded(.afterAnswers)
        }
    }

    /// `count` random bytes, none of them a letter, so they never start an HTTP status line.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (65...122).contains(byte) ? byte &+ 128 : byte
        }
    }
}
