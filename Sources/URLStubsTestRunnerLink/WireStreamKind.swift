import Foundation
import URLStubs

/// How the app frames a live stream the test writes, as it crosses the test-runner link in
/// ``WireResponse/streamKind``. The raw values are the JSON text both sides exchange.
package enum WireStreamKind: String, Codable, Sendable, CaseIterable {
    /// `"eventStream"`: a `text/event-stream` body (server-sent events).
    case eventStream
    /// `"stream"`: the bytes as the test writes them (NDJSON, tokens), with the stub's own
    /// `Content-Type`.
    case stream

    /// Decodes a kind, with an error that names the value and the known kinds.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let kind = WireStreamKind(rawValue: text) else {
            let known = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a stream kind (known: \(known))")
        }
        self = kind
    }
}
