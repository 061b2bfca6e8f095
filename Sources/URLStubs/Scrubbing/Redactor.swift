import Foundation

/// Replaces every copy of a set of secrets in text and bytes: as written, percent-encoded (upper
/// and lower-case hex) and base64-encoded (standard and URL-safe, with and without padding).
///
/// A secret of four characters or more is replaced wherever it appears. A shorter one (a PIN, a
/// short key) only where it stands as a whole value: between quotes (escaped ones too), or after
/// `=` or a line break and before `&`, `;`, `,`, a quote, white space or the end. Replacing every
/// `1` would mangle the text.
package struct Redactor: Sendable {
    let placeholder: String
    /// Whether ``redact(_:)-(String)`` also hides the credentials of every URL in the text
    /// (see ``hidingURLCredentials(in:placeholder:)``).
    let hidesURLCredentials: Bool
    /// Copies of secrets of four characters or more, longest first.
    private let anywhere: [String]
    /// Copies of shorter secrets, longest first.
    private let wholeValues: [String]

    init(secrets: Set<String>, placeholder: String, hidingURLCredentials: Bool = false) {
        self.placeholder = placeholder
        self.hidesURLCredentials = hidingURLCredentials
        var anywhere: Set<String> = []
        var wholeValues: Set<String> = []
        for secret in secrets where !secret.isEmpty && secret != placeholder {
            if secret.count >= 4 {
                anywhere.formUnion(Self.copies(of: secret))
            } else {
                wholeValues.formUnion(Self.copies(of: secret))
            }
        }
        // A copy that is part of the placeholder would eat the placeholders already written.
        let longestFirst: (String, String) -> Bool = { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        self.anywhere = anywhere.filter { !placeholder.contains($0) }.sorted(by: longestFirst)
        self.wholeValues = wholeValues.subtracting(anywhere).filter { !placeholder.contains($0) }.sorted(by: longestFirst)
    }

    /// `true` when there is no secret to hide.
    var isEmpty: Bool { anywhere.isEmpty && wholeValues.isEmpty }

    /// The forms a secret travels in.
    static func copies(of secret: String) -> Set<String> {
        var copies: Set<String> = [secret]
        let encoded = percentEncoded(secret)
        copies.insert(encoded)
        copies.insert(lowercasingHex(encoded))
        let base64 = Data(secret.utf8).base64EncodedString()
        let unpadded = base64.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        copies.insert(base64)
        copies.insert(unpadded)
        copies.insert(unpadded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
        copies.insert(percentEncoded(base64))
        return copies.filter { !$0.isEmpty }
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static func lowercasingHex(_ encoded: String) -> String {
        var result = ""
        var remaining = 0
        for character in encoded {
            if character == "%" {
                remaining = 2
                result.append(character)
            } else if remaining > 0 {
                remaining -= 1
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` with every secret replaced.
    package func redact(_ text: String) -> String {
        let text = hidesURLCredentials ? Self.hidingURLCredentials(in: text, placeholder: placeholder) : text
        guard !isEmpty else { return text }
        var result = anywhere.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
        for value in wholeValues where result.contains(value) {
            result = replacingWholeValues(value, in: result)
        }
        return result
    }

    /// `data` with every secret replaced; the same bytes when it holds none.
    func redact(_ data: Data) -> Data {
        guard !isEmpty else { return data }
        let placeholderBytes = Data(placeholder.utf8)
        var result = anywhere.reduce(data) { Self.replacing(Data($1.utf8), with: placeholderBytes, in: $0) }
        if !wholeValues.isEmpty, let text = String(data: result, encoding: .utf8) {
            let redacted = wholeValues.reduce(text) { replacingWholeValues($1, in: $0) }
            if redacted != text { result = Data(redacted.utf8) }
        }
        return result
    }

    /// A line of its own is a whole value too: a form part's value stands alone on its line.
    private static let valueStarts: Set<Character> = ["\"", "'", "=", "\n", "\r\n"]
    private static let valueEnds: Set<Character> = ["\"", "\\", "'", "&", ";", ",", "#", " ", "\n", "\r", "\r\n", "\t"]

    private func replacingWholeValues(_ value: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let found = rest.range(of: value) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            let startsValue = before.map { Self.valueStarts.contains($0) } ?? true
            let endsValue = after.map { Self.valueEnds.contains($0) } ?? true
            result += rest[rest.startIndex..<found.lowerBound]
            result += startsValue && endsValue ? placeholder : String(rest[found])
            rest = rest[found.upperBound...]
        }
        result += rest
        return result
    }

    /// `data` with every occurrence of `target` replaced.
    private static func replacing(_ target: Data, with replacement: Data, in data: Data) -> Data {
        guard !target.isEmpty, data.count >= target.count, data.range(of: target) != nil else { return data }
        var result = Data()
        var rest = data[...]
        while let found = rest.range(of: target) {
            result.append(rest[rest.startIndex..<found.lowerBound])
            result.append(replacement)
            rest = rest[found.upperBound...]
        }
        result.append(rest)
        return result
    }
}
