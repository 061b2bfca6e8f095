import Foundation

/// The secrets a policy finds by itself in bodies whose format a module reads (a
/// `multipart/form-data` form; a document quoted in a JSON string, such as a GraphQL query with
/// its arguments written inline), so that what a report or a recording hides never depends on
/// whether that module was used first in the process. A module's ``ScrubbingStrategy`` may find
/// more; these only add values for ``Redactor`` to hide.
extension Scrubbing {
    /// The values of the form fields this policy lists (``queryParameters``, as for a
    /// URL-encoded form) in a `multipart/form-data` body; `nil` for another type, or a body
    /// without the boundary its type names.
    func formDataSecrets(_ body: Data, mimeType: String?) -> Set<String>? {
        guard let mimeType, mimeType.lowercased().hasPrefix("multipart/form-data"), let boundary = Self.boundary(in: mimeType) else {
            return nil
        }
        guard !queryParameters.isEmpty else { return [] }
        let delimiter = Data("--\(boundary)".utf8)
        var secrets: Set<String> = []
        var rest = body[...]
        guard let first = rest.range(of: delimiter) else { return nil }
        rest = rest[first.upperBound...]
        while let next = rest.range(of: delimiter) {
            let part = rest[rest.startIndex..<next.lowerBound]
            rest = rest[next.upperBound...]
            guard let split = part.range(of: Data("\r\n\r\n".utf8)) else { continue }
            let head = String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self)
            guard let name = Self.partName(in: head), scrubsParameter(name) else { continue }
            var content = part[split.upperBound...]
            if content.suffix(2) == Data("\r\n".utf8) { content = content.dropLast(2) }
            if let value = String(data: content, encoding: .utf8) { secrets.insert(value) }
        }
        return secrets
    }

    /// The `boundary` parameter of a multipart media type, unquoted.
    private static func boundary(in mimeType: String) -> String? {
        for parameter in mimeType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The `name` parameter of a part's `Content-Disposition` line.
    private static func partName(in head: String) -> String? {
        for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            for parameter in line.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "name" else { continue }
                return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// `true` when `body` may write a listed name as `name:` (followed by its value) inside its
    /// text: it spares parsing every JSON body.
    static func mayHoldInlineValue(of names: Set<String>, in body: Data) -> Bool {
        guard !names.isEmpty, !body.isEmpty else { return false }
        var lowered = body
        lowered.withUnsafeMutableBytes { bytes in
            for index in bytes.indices where bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") { bytes[index] += 32 }
        }
        return names.contains { lowered.range(of: Data("\($0):".utf8)) != nil || lowered.range(of: Data("\($0) :".utf8)) != nil }
    }

    /// The values written inline after a listed name in the strings of `json`:
    /// `password: "hunter2"` or `pin: 1234` (a GraphQL argument or input field, a line of
    /// YAML or script quoted in a member), however the text around them is laid out.
    func collectInlineSecrets(_ json: JSONValue, names: Set<String>, into secrets: inout Set<String>) {
        switch json {
        case .string(let text):
            secrets.formUnion(Self.inlineValues(in: text, names: names))
        case .array(let items):
            for item in items { collectInlineSecrets(item, names: names, into: &secrets) }
        case .object(let members):
            for (_, member) in members { collectInlineSecrets(member, names: names, into: &secrets) }
        default:
            break
        }
    }

    /// Each value written `name: "value"` (escapes kept as written) or `name: 123` in `text`,
    /// for the names listed (compared without case, as a whole word).
    static func inlineValues(in text: String, names: Set<String>) -> Set<String> {
        let characters = Array(text)
        let lowered = characters.map { Character($0.lowercased()) }
        var values: Set<String> = []
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        for name in names where !name.isEmpty {
            let pattern = Array(name)
            var index = 0
            while index + pattern.count <= lowered.count {
                defer { index += 1 }
                guard Array(lowered[index..<index + pattern.count]) == pattern else { continue }
                if index > 0, isWordCharacter(characters[index - 1]) { continue }
                var cursor = index + pattern.count
                while cursor < characters.count, characters[cursor] == " " || characters[cursor] == "\t" { cursor += 1 }
                guard cursor < characters.count, characters[cursor] == ":" else { continue }
                cursor += 1
                while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
                guard cursor < characters.count else { continue }
                if characters[cursor] == "\"" {
                    var end = cursor + 1
                    while end < characters.count, characters[end] != "\"" { end += characters[end] == "\\" ? 2 : 1 }
                    values.insert(String(characters[cursor + 1..<min(end, characters.count)]))
                } else if characters[cursor].isNumber || characters[cursor] == "-" {
                    var end = cursor + 1
                    while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
                    values.insert(String(characters[cursor..<end]))
                }
            }
        }
        return values.filter { !$0.isEmpty }
    }
}
