import Foundation

/// What a ``StubResponse`` does when it is played, said once: every other field of the response
/// (status, headers, body) is read only as this says.
package enum ResponseAction: Sendable {
    /// Sends the head, then the body (its first `truncatedAfterBytes` bytes only, while the head
    /// still announces the whole length, when set), then finishes.
    case respond(truncatedAfterBytes: Int?)
    /// Fails with the error after the request time and the response time: no head is sent.
    case fail(SendableError)
    /// Sends the head and the first `bytes` body bytes, then fails with the error.
    case failAfterBytes(Int, SendableError)
    /// Sends nothing: the request ends when its timeout elapses or the caller cancels.
    case neverRespond
    /// Fetches the response from the real network, changed by the transforms.
    case passThrough(transforms: [ResponseTransform])
    /// Fetches the response from the real network at another base: the base's scheme, host,
    /// port and path, then the request's path and query.
    case proxy(to: URL)

    /// `true` when the action sends the response's status, headers and body.
    package var sendsHead: Bool {
        switch self {
        case .respond, .failAfterBytes: return true
        case .fail, .neverRespond, .passThrough, .proxy: return false
        }
    }

    /// `true` when the response comes from the real network.
    var passesThrough: Bool {
        switch self {
        case .passThrough, .proxy: return true
        case .respond, .fail, .failAfterBytes, .neverRespond: return false
        }
    }

    /// The error the request ends with, if the action fails it.
    package var error: (any Error)? {
        switch self {
        case .fail(let failure), .failAfterBytes(_, let failure): return failure.error
        case .respond, .neverRespond, .passThrough, .proxy: return nil
        }
    }

    /// How many body bytes are sent before the body stops short (a truncation or a failure).
    package var byteLimit: Int? {
        switch self {
        case .respond(let truncated): return truncated
        case .failAfterBytes(let bytes, _): return bytes
        case .fail, .neverRespond, .passThrough, .proxy: return nil
        }
    }
}
