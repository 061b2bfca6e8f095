import Foundation

/// Reads JSON text straight into a ``JSONValue``, in one pass over the bytes and without
/// recursion: the arrays and objects open at any moment sit on a stack of its own, so nesting
/// costs heap, never the calling thread's stack (a secondary thread on Apple platforms has
/// 512 KB). Nesting is limited to ``JSONSyntaxError/maximumDepth`` (512) levels all the same.
///
/// Two ways to read:
/// - ``read(_:rules:)`` takes any JSON text and decides every input itself: a value, or a
///   ``JSONSyntaxError`` saying what was wrong and at which line, column and byte (invalid
///   UTF-8, half a surrogate pair, nesting past the limit included). ``JSONValue/init(data:)``
///   and the matchers read request bodies this way, and OpenAPI documents are read with
///   ``Rules/document``, which also refuses a member written twice and text in UTF-16 or UTF-32.
/// - ``value(from:)`` is the fast subset that agrees with `JSONSerialization` (the HAR reader
///   and the fuzz target compare the two): it answers `nil` for text that is not plain UTF-8,
///   integers beyond `Int` and long fractions, and ``problem(in:)`` names the cause of a
///   rejection in that subset.
enum JSONBytesReader {
    /// What the complete reader accepts beyond RFC 8259's UTF-8 JSON.
    struct Rules: Sendable {
        /// `false`: the last of two members with one name wins, as `JSONSerialization` does.
        var refusesDuplicateMembers: Bool
        /// `true`: UTF-16 and UTF-32 text (recognised by its byte order mark or its zero
        /// bytes, as RFC 4627 describes) is read; `false`: it is refused by name.
        var readsOtherEncodings: Bool
        /// Objects under a member of this name keep their members' order (``read(_:rules:)``'s
        /// `memberOrders`): a document's `examples`, whose first entry is the one it shows.
        var keepsMemberOrderUnder: String? = nil

        /// Request and response bodies: as lenient as `JSONSerialization` was.
        static let body = Rules(refusesDuplicateMembers: false, readsOtherEncodings: true)
        /// Documents a person wrote (OpenAPI): a member written twice is a mistake, and only
        /// UTF-8 is read, so nothing is silently repaired or guessed.
        static let document = Rules(refusesDuplicateMembers: true, readsOtherEncodings: false)
    }

    /// The value `data` holds, or the reason it is not JSON and where.
    static func read(_ data: Data, rules: Rules = .body) throws -> JSONValue {
        try readKeepingOrder(data, rules: rules).value
    }

    /// ``read(_:rules:)``, with the member order of each object under the member that
    /// `rules.keepsMemberOrderUnder` names, keyed by the object.
    static func readKeepingOrder(_ data: Data, rules: Rules) throws -> (value: JSONValue, memberOrders: [JSONValue: [String]]) {
        var data = data
        if let encoding = JSONTextEncoding(of: data) {
            guard rules.readsOtherEncodings, let text = String(data: data, encoding: encoding.foundationEncoding) else {
                throw JSONSyntaxError(reason: encoding.refusal, offset: 0, line: 1, column: 1)
            }
            data = Data(text.utf8)
        }
        switch read(data, complete: true, refusesDuplicates: rules.refusesDuplicateMembers, memberOrderName: rules.keepsMemberOrderUnder) {
        case .value(let value, let orders): return (value, orders)
        case .problem(let problem): throw problem
        case .unsupported: throw JSONSyntaxError(reason: "not JSON text", offset: 0, line: 1, column: 1)
        }
    }

    /// The value `data` holds, or `nil` when the fast path does not take it (see above).
    static func value(from data: Data) -> JSONValue? {
        if case .value(let value, _) = read(data, complete: false, refusesDuplicates: false) { return value }
        return nil
    }

    /// Why `data` is not JSON the fast path takes, with the byte offset; `nil` when it takes it
    /// or leaves it without a verdict (text that is not UTF-8, numbers beyond `Int` or with
    /// long fractions).
    static func problem(in data: Data) -> JSONSyntaxError? {
        if case .problem(let problem) = read(data, complete: false, refusesDuplicates: false) { return problem }
        return nil
    }

    private enum Outcome {
        case value(JSONValue, [JSONValue: [String]])
        case problem(JSONSyntaxError)
        case unsupported
    }

    private static func read(_ data: Data, complete: Bool, refusesDuplicates: Bool, memberOrderName: String? = nil) -> Outcome {
        data.withUnsafeBytes { bytes -> Outcome in
            var cursor = JSONCursor(bytes: bytes, complete: complete, refusesDuplicates: refusesDuplicates)
            cursor.memberOrderName = memberOrderName
            do {
                let value = try cursor.readDocument()
                return .value(value, cursor.memberOrders)
            } catch let invalid as JSONCursor.Invalid {
                let depth = invalid.reason == JSONSyntaxError.tooDeepReason ? cursor.depthOfNesting(from: invalid.offset) : nil
                return .problem(JSONSyntaxError(reason: invalid.reason, offset: invalid.offset, in: bytes, nestingDepth: depth))
            } catch {
                return .unsupported
            }
        }
    }
}

/// The encodings other than UTF-8 that JSON text may arrive in, told by the first bytes.
enum JSONTextEncoding {
    case utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian

    /// `nil` for UTF-8 (or text too short to tell). JSON text starts with two ASCII
    /// characters, so the zero bytes around them tell the encoding when no byte order mark does.
    init?(of data: Data) {
        let first = Array(data.prefix(4))
        let zero = first.map { $0 == 0 }
        if first.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || (first.count == 4 && zero[0] && zero[1] && zero[2]) {
            self = .utf32BigEndian
        } else if first.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || (first.count == 4 && zero[1] && zero[2] && zero[3]) {
            self = .utf32LittleEndian
        } else if first.starts(with: [0xFE, 0xFF]) || (first.count >= 2 && zero[0]) {
            self = .utf16BigEndian
        } else if first.starts(with: [0xFF, 0xFE]) || (first.count >= 2 && zero[1]) {
            self = .utf16LittleEndian
        } else {
            return nil
        }
    }

    var foundationEncoding: String.Encoding {
        switch self {
        case .utf16BigEndian: return .utf16BigEndian
        case .utf16LittleEndian: return .utf16LittleEndian
        case .utf32BigEndian: return .utf32BigEndian
        case .utf32LittleEndian: return .utf32LittleEndian
        }
    }

    private var name: String {
        switch self {
        case .utf16BigEndian: return "UTF-16 (big-endian)"
        case .utf16LittleEndian: return "UTF-16 (little-endian)"
        case .utf32BigEndian: return "UTF-32 (big-endian)"
        case .utf32LittleEndian: return "UTF-32 (little-endian)"
        }
    }

    /// Why text in this encoding is not read where only UTF-8 is.
    var refusal: String { "the text is \(name), not UTF-8: save it as UTF-8" }
}
