import Foundation
import URLStubs

/// A `Content-Type` (or `Content-Disposition`) value split into its essence and parameters:
/// `multipart/form-data; boundary="a b"` is `multipart/form-data` with `boundary` = `a b`.
package struct MediaType: Sendable, Equatable {
    /// The part before the first `;`, lower-cased and trimmed (`multipart/form-data`, `form-data`).
    package let essence: String
    /// Parameters by lower-cased name, quotes removed and `\` escapes resolved.
    package let parameters: [String: String]

    /// Reads `text`, a header value; never fails (what does not read as a parameter is skipped).
    package init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func skipSpaces() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        }
        func readToken(until stops: Set<Unicode.Scalar>) -> String {
            var token = String.UnicodeScalarView()
            while index < scalars.count, !stops.contains(scalars[index]) {
                token.append(scalars[index])
                index += 1
            }
            return String(token).trimmingCharacters(in: .whitespaces)
        }
        essence = readToken(until: [";"]).lowercased()
        var parameters: [String: String] = [:]
        while index < scalars.count {
            index += 1  // the ";"
            skipSpaces()
            let name = readToken(until: ["=", ";"]).lowercased()
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                skipSpaces()
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    var quoted = String.UnicodeScalarView()
                    while index < scalars.count, scalars[index] != "\"" {
                        if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                        quoted.append(scalars[index])
                        index += 1
                    }
                    index += 1  // the closing quote, if any
                    value = String(quoted)
                    _ = readToken(until: [";"])  // anything after the quotes is not part of the value
                } else {
                    value = readToken(until: [";"])
                }
            }
            if !name.isEmpty, parameters[name] == nil { parameters[name] = value }
        }
        self.parameters = parameters
    }

    /// Whether `self` is the media type `expected` names: the same essence (case-insensitive)
    /// and every parameter `expected` lists, with the same value (`charset` compared without
    /// case, as RFC 2046 says).
    func satisfies(_ expected: MediaType) -> Bool {
        guard essence == expected.essence else { return false }
        return expected.parameters.allSatisfy { name, value in
            guard let actual = parameters[name] else { return false }
            return name == "charset" ? actual.lowercased() == value.lowercased() : actual == value
        }
    }

    /// A parameter in RFC 8187 form (`filename*=UTF-8''na%C3%AFve.txt`), decoded; `nil`
    /// when absent or not in that form.
    func extendedParameter(_ name: String) -> String? {
        guard let raw = parameters[name.lowercased() + "*"] else { return nil }
        let pieces = raw.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        return String(pieces[2]).removingPercentEncoding
    }
}
