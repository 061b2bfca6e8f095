import Foundation
import URLStubs

/// Frames on the stream: a 4-byte big-endian length, then that many bytes of JSON.
package enum WireFrame {
    /// The largest message either side sends or accepts: a stub, a held request's replacement
    /// response or a stream write travels as one message, its bytes as base64 (4 for every 3),
    /// so a body of up to about 48 MB fits. What the test declares before launch travels as one
    /// message per declaration, so its total has no limit of its own.
    package static let maximumSize = 64 << 20

    /// The largest `hello` the test side reads: an app's hello is about 150 bytes, and under
    /// 1,000 whatever its name (a token of 64 hex digits, a process name cut to
    /// ``helloProcessNameLimit`` bytes, each escaped in at most 6); anything larger is refused
    /// before a byte of it is read, since it comes before the token is checked.
    package static let maximumHelloSize = 1024

    /// The most UTF-8 bytes of the process name a hello carries (the rest is cut), so a hello
    /// always fits ``maximumHelloSize``.
    package static let helloProcessNameLimit = 128

    /// The frame of `message`, length and JSON in one buffer (one write, one segment).
    /// - Throws: ``WireFrameTooLarge`` for a message past ``maximumSize``, which the other side
    ///   would refuse.
    package static func encode(_ message: WireMessage) throws -> Data {
        let json = try message.encoded()
        guard json.count <= maximumSize else { throw WireFrameTooLarge(size: json.count) }
        var length = UInt32(json.count).bigEndian
        var frame = Data(bytes: &length, count: 4)
        frame.append(json)
        return frame
    }

    /// Reads the next frame's JSON.
    /// - Parameters:
    ///   - timeout: The longest wait for the frame; `nil` waits until it comes or the
    ///     connection closes.
    ///   - limit: The largest frame accepted; a larger announced length throws
    ///     ``WireFrameTooLarge`` before a byte of the frame is read.
    package static func read(
        from socket: LoopbackSocket, timeout: TimeInterval?, limit: Int = maximumSize
    ) throws -> Data {
        let head = try socket.read(count: 4, timeout: timeout)
        let length = head.reduce(0) { ($0 << 8) | Int($1) }
        guard length <= limit else { throw WireFrameTooLarge(size: length, limit: limit) }
        return try socket.read(count: length, timeout: timeout == nil ? nil : max(timeout ?? 0, 10))
    }

    /// Sends `message`.
    package static func send(_ message: WireMessage, on socket: LoopbackSocket) throws {
        try socket.write(try encode(message))
    }
}

/// A frame longer than the link carries: one about to be sent, or one the other side announced
/// (then the stream cannot be trusted any more, and the reader stops reading it).
package struct WireFrameTooLarge: Error, Sendable, CustomStringConvertible {
    /// The frame's length in bytes.
    package let size: Int
    /// The limit it passed.
    package let limit: Int

    /// A frame of `size` bytes, past `limit`.
    package init(size: Int, limit: Int = WireFrame.maximumSize) {
        self.size = size
        self.limit = limit
    }

    /// `a frame announced 1195725856 bytes, more than the 64 MiB limit: …`.
    package var description: String {
        "a frame announced \(size) bytes, more than the \(Self.describe(limit)) limit: "
            + "the other side does not speak the URLStubs test-runner protocol"
    }

    /// `64 MiB`, `1024 bytes`.
    package static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
