import Foundation
import URLStubs

/// One message of the test-runner link, in either direction: a JSON object whose `type` says
/// what it is, `id` pairs a command with its reply, and the other fields are those the type
/// needs (``WireMessage/required(_:_:)`` names a missing one).
///
/// The conversation: the app connects and sends `hello` (protocol version, token); the test
/// side answers `refused` (and closes) or `welcome`, whose `setupCount` says how many commands
/// declared before the app connected follow it, one frame each (so no single frame holds them
/// all, see ``WireFrame/maximumSize``); the app applies them and answers `ready`. Then the test sends
/// commands, each answered by `done` or `failed` with the same `id`. `hello` and `refused` keep
/// their fields in every protocol version, so a mismatch is always reported, never garbled.
///
/// Stubs cross in the engine's own vocabulary: a `StubDeclaration` in its versioned JSON form
/// (``declaration``), and a request pattern or a response definition in the JSON form they
/// have inside one (``request``, ``response``), read by the engine's strict reader. The link
/// adds only what a declaration does not carry: the test's identifier for the stub, its
/// expected count, and the commands.
package struct WireMessage: Codable, Sendable {
    /// The link's protocol version; both sides must speak the same one. Version 3 sends
    /// declarations.
    package static let protocolVersion = 3

    /// What the message is: a ``WireMessageType`` raw value.
    package var type: String
    /// Pairs a command with its reply.
    package var id: Int?
    // hello, welcome, refused, ready
    /// `hello`, `welcome`, `refused`: the sender's protocol version.
    package var protocolVersion: Int?
    /// `hello`: the token of `URLSTUBS_TEST_RUNNER_TOKEN`.
    package var token: String?
    /// `hello`: the app's process identifier.
    package var processID: Int?
    /// `hello`: the app's process name.
    package var processName: String?
    /// `welcome`: how many commands declared before the app connected follow the welcome, one
    /// frame each, in order.
    package var setupCount: Int?
    /// `welcome`: `fail` or `passthrough`, the app registry's unmatched policy.
    package var unmatchedRequests: String?
    // commands
    /// `addStub`: the stub, in the declaration's JSON form (its name, source and `times` in it).
    package var declaration: JSONValue?
    /// `addStub`, `expectCount`: how many times the stub of ``stubID`` is expected to answer.
    package var expected: WireExpectedCount?
    /// `addStub`, `removeStub`, `expectCount`: the test's identifier for the stub.
    package var stubID: String?
    /// `activateScenario`, `deactivateScenario`: the scenario's name.
    package var scenario: String?
    /// `setOffline`: on or off.
    package var offline: Bool?
    /// `setOffline`, the waits for a gate or a stream: `MyAppTests/AppTests.swift:12`, where the
    /// test called it or made the gate or stream, for the app's reports.
    package var location: String?
    /// Gate commands: the gate's identifier.
    package var gateID: String?
    /// Stream commands: the live stream's identifier.
    package var streamID: String?
    /// `releaseHeld`: the response that replaces the stub's own, in a declaration's `response`
    /// form.
    package var response: JSONValue?
    /// `failHeld`, `streamFail`: the `URLError` code.
    package var errorCode: Int?
    /// `streamSend`: the bytes to write.
    package var data: Data?
    /// `waitForRequests`: which requests count, in a declaration's `request` form.
    package var request: JSONValue?
    /// `waitForRequests`: how many.
    package var count: Int?
    /// Waits: seconds before the wait fails.
    package var timeout: Double?
    // replies
    /// `failed`, `refused`, `ready`: what went wrong, in words.
    package var message: String?
    /// `done` of gate and removal commands: whether something was released or removed.
    package var released: Bool?
    /// `done` of `journal` and `waitForRequests`: the requests.
    package var entries: [WireJournalEntry]?
    /// `done` of the waits for a held request or a stream connection: the request.
    package var entry: WireJournalEntry?
    /// `done` of `verify`: the report.
    package var report: WireVerificationReport?

    /// A message of `type`, answering or asking `id`.
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
            // The decoder calls JSON nested too deep "not valid JSON": say how deep it is.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let nesting = JSONValue.excessNesting(of: json) {
                throw WireProtocolError(
                    "malformed message: it is JSON nested \(nesting.depth) levels deep, deeper than the \(nesting.limit) levels a message may nest")
            }
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
    case journal, waitForRequests, verify, expectCount
    // Replies from the app.
    case done, failed
}

/// A message that breaks the link's protocol: what was wrong, naming the field.
package struct WireProtocolError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the field.
    package let description: String
    /// The error, in words.
    package init(_ description: String) { self.description = description }
}
