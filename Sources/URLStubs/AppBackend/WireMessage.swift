import Foundation

/// One message of the test-runner link, in either direction: a JSON object whose `type` says
/// what it is, `id` pairs a command with its reply, and the other fields are those the type
/// needs (``WireMessage/required(_:_:)`` names a missing one).
///
/// The conversation: the app connects and sends `hello` (protocol version, token); the test
/// side answers `refused` (and closes) or `welcome`, whose `setup` holds the commands declared
/// before the app connected; the app applies them and answers `ready`. Then the test sends
/// commands, each answered by `done` or `failed` with the same `id`. `hello` and `refused` keep
/// their fields in every protocol version, so a mismatch is always reported, never garbled.
package struct WireMessage: Codable, Sendable {
    /// The link's protocol version; both sides must speak the same one.
    package static let protocolVersion = 1

    package var type: String
    package var id: Int?
    // hello, welcome, refused, ready
    package var protocolVersion: Int?
    package var token: String?
    package var processID: Int?
    package var processName: String?
    package var setup: [WireMessage]?
    package var unmatchedRequests: String?
    // commands
    package var stub: WireStub?
    package var stubID: String?
    package var scenario: String?
    package var offline: Bool?
    package var gateID: String?
    package var streamID: String?
    package var response: RemoteResponse?
    package var errorCode: Int?
    package var data: Data?
    package var matcher: RemoteMatcher?
    package var count: Int?
    package var timeout: Double?
    // replies
    package var message: String?
    package var released: Bool?
    package var entries: [AppJournalEntry]?
    package var entry: AppJournalEntry?
    package var report: AppVerificationReport?

    package init(_ type: WireMessageType, id: Int? = nil) {
        self.type = type.rawValue
        self.id = id
    }

    /// The message's type, or an error naming the `type` field and the known types.
    package func knownType() throws -> WireMessageType {
        guard let known = WireMessageType(rawValue: type) else {
            throw WireProtocolError(
                "unknown message type \"\(type)\" in the field \"type\" (known: \(WireMessageType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return known
    }

    /// `value`, or an error naming `field` as missing from a message of this type.
    package func required<Value>(_ value: Value?, _ field: String) throws -> Value {
        guard let value else { throw WireProtocolError("a \"\(type)\" message needs the field \"\(field)\"") }
        return value
    }

    // MARK: Encoding

    /// The JSON of this message.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Decodes a message, with an error that names the field at fault.
    package static func decode(_ json: Data) throws -> WireMessage {
        do {
            return try JSONDecoder().decode(WireMessage.self, from: json)
        } catch let error as DecodingError {
            throw WireProtocolError("malformed message: \(describe(error))")
        }
    }

    /// `field "stub.response.status" must be a number`, from a decoder's error.
    package static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, adding key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .replacingOccurrences(of: ".[", with: "[").trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \"\(path(context, adding: key))\""
        case .typeMismatch(let type, let context):
            return "field \"\(path(context))\" must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "field \"\(path(context))\" must be \(typeName(type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not a JSON object (\(context.debugDescription))" }
            return "field \"\(path(context))\": \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type, is UInt64.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is Data.Type: return "base64 text"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object (\(name))"
        }
    }
}

/// What a ``WireMessage`` is.
package enum WireMessageType: String, CaseIterable, Sendable {
    // The handshake.
    case hello, welcome, refused, ready
    // Commands from the test.
    case addStub, removeStub, removeAllStubs, activateScenario, deactivateScenario, setOffline
    case waitForHeldRequest, releaseHeld, failHeld
    case waitForStreamConnection, streamSend, streamFinish, streamFail
    case journal, waitForRequests, verify
    // Replies from the app.
    case done, failed
}

/// A stub as the test sends it: an identifier to remove it by, and its description.
package struct WireStub: Codable, Sendable {
    package var id: String
    package var name: String?
    package var times: Int?
    package var matcher: RemoteMatcher
    package var response: RemoteResponse
    /// `AppTests.swift:12`, where the test declared it.
    package var location: String

    package init(id: String, name: String?, times: Int?, matcher: RemoteMatcher, response: RemoteResponse, location: String) {
        self.id = id
        self.name = name
        self.times = times
        self.matcher = matcher
        self.response = response
        self.location = location
    }
}

/// A message that breaks the link's protocol: what was wrong, naming the field.
package struct WireProtocolError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Frames on the stream: a 4-byte big-endian length, then that many bytes of JSON.
package enum WireFrame {
    /// The largest message either side accepts.
    package static let maximumSize = 64 << 20

    /// The frame of `message`, length and JSON in one buffer (one write, one segment).
    package static func encode(_ message: WireMessage) throws -> Data {
        let json = try message.encoded()
        var length = UInt32(json.count).bigEndian
        var frame = Data(bytes: &length, count: 4)
        frame.append(json)
        return frame
    }

    /// Reads the next frame's JSON.
    /// - Parameter timeout: The longest wait for the frame; `nil` waits until it comes or the
    ///   connection closes.
    package static func read(from socket: LoopbackSocket, timeout: TimeInterval?) throws -> Data {
        let head = try socket.read(count: 4, timeout: timeout)
        let length = head.reduce(0) { ($0 << 8) | Int($1) }
        guard length <= maximumSize else {
            throw WireProtocolError(
                "a frame announced \(length) bytes, more than the \(maximumSize >> 20) MiB limit: "
                    + "the other side does not speak the URLStubs test-runner protocol")
        }
        return try socket.read(count: length, timeout: timeout == nil ? nil : max(timeout ?? 0, 10))
    }

    /// Sends `message`.
    package static func send(_ message: WireMessage, on socket: LoopbackSocket) throws {
        try socket.write(try encode(message))
    }
}
