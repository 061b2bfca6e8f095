import Foundation
import URLStubs

/// JSON pointers (RFC 6901) as URI fragments: `#/paths/~1pets~1{id}/get`.
enum JSONPointer {
    /// `~` and `/` escaped as `~0` and `~1`.
    static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pointer` and one more token.
    static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }

    /// The value `reference` (`#/components/schemas/Pet`) points to in `root`; `nil` when it
    /// points to nothing. The fragment may be percent-encoded.
    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var fragment = String(reference.dropFirst())
        if fragment.utf8.contains(UInt8(ascii: "%")) { fragment = fragment.removingPercentEncoding ?? fragment }
        guard !fragment.isEmpty else { return root }
        guard fragment.hasPrefix("/") else { return nil }
        var value = root
        for raw in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token =
                raw.utf8.contains(UInt8(ascii: "~"))
                ? raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") : String(raw)
            switch value {
            case .object(let members):
                guard let next = members[token] else { return nil }
                value = next
            case .array(let items):
                guard let position = Int(token), items.indices.contains(position) else { return nil }
                value = items[position]
            default:
                return nil
            }
        }
        return value
    }

    /// The canonical spelling of `reference` (decoded), so two spellings of one target share
    /// one compiled schema.
    static func canonical(_ reference: String) -> String {
        guard reference.utf8.contains(UInt8(ascii: "%")) else { return reference }
        return reference.removingPercentEncoding ?? reference
    }
}
