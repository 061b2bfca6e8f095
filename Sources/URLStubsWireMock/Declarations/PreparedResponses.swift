import Foundation
import URLStubs

/// A WireMock response made ready to answer: decoded, its templates parsed. Made once when a
/// mapping becomes a declaration, and found again by the `wireMock` transformer when the
/// declaration is registered, so a folder's templates are parsed once, not three times
/// (loading, checking the declaration, registering it).
final class PreparedResponse: Sendable {
    let response: WireMockMapping.ResponseDefinition
    /// The templates of a templated response; `nil` when it is not templated.
    let templates: WireMockResponseTemplates?
    /// The WireMock JSON it was made from: a value claiming it must still say the same.
    let json: JSONValue

    init(response: WireMockMapping.ResponseDefinition, templates: WireMockResponseTemplates?, json: JSONValue) {
        self.response = response
        self.templates = templates
        self.json = json
    }
}

/// The prepared responses still alive, by the token the transformer value carries
/// (`"prepared": "<UUID>"`).
///
/// Only weak references are kept: whoever turned mappings into declarations holds the
/// prepared responses while registering them (``WireMockFolder`` and the admin API do), and a
/// registered responder holds its own. A value whose token has no live entry (a declaration
/// read from JSON in another process, or kept after its folder was released), or whose
/// response JSON is no longer the one prepared, is decoded and parsed again: the table only
/// saves work, it never decides an answer.
enum PreparedResponses {
    private final class Entry: @unchecked Sendable {
        weak var prepared: PreparedResponse?
        init(_ prepared: PreparedResponse) { self.prepared = prepared }
    }

    /// The member of the transformer value that holds the token.
    static let tokenMember = "prepared"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries: [String: Entry] = [:]
    nonisolated(unsafe) private static var pruneAt = 64

    /// Remembers `prepared` while something else holds it; returns its token.
    static func remember(_ prepared: PreparedResponse) -> String {
        let token = UUID().uuidString
        lock.lock(); defer { lock.unlock() }
        entries[token] = Entry(prepared)
        if entries.count >= pruneAt {
            entries = entries.filter { $0.value.prepared != nil }
            pruneAt = max(64, entries.count * 2)
        }
        return token
    }

    /// The live prepared response `options` names, if it was made from `options`' response.
    static func prepared(for options: [String: JSONValue]) -> PreparedResponse? {
        guard case .string(let token)? = options[tokenMember], let response = options["response"] else { return nil }
        lock.lock()
        let prepared = entries[token]?.prepared
        lock.unlock()
        guard let prepared, prepared.json.isSame(as: response) else { return nil }
        return prepared
    }
}

extension JSONValue {
    /// `self == other`, answered at once for arrays that share their storage (a value and
    /// its copies): a prepared response's 15 KB `jsonBody` costs a pointer comparison, not a walk.
    func isSame(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return false }
            let shared = left.withUnsafeBufferPointer { a in right.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
            return shared || zip(left, right).allSatisfy { $0.isSame(as: $1) }
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            return left.allSatisfy { key, value in right[key].map { value.isSame(as: $0) } ?? false }
        default:
            return self == other
        }
    }
}
