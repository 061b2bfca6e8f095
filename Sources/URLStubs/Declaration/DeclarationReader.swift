import Foundation

/// Reads the parts of a declaration's JSON form, strictly: each member must be one the form
/// defines, of the type it defines, and every problem names the source, the JSON path and
/// what was expected.
struct DeclarationReader {
    /// The file (or other origin) named in errors.
    let source: String

    func fail(_ path: String, _ problem: String) -> StubError {
        StubError.invalidDeclaration(source: source, path: path, problem: problem)
    }

    /// The members of the object at `path`; any member not in `allowed` is an error listing
    /// the allowed ones (`nil`: names of the user's choosing, such as header names).
    func object(_ value: JSONValue, at path: String, allowed: [String]?) throws -> [String: JSONValue] {
        guard case .object(let members) = value else { throw fail(path, "expected an object, found \(kind(of: value))") }
        if let allowed, let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw fail(
                "\(path).\(unknown)", "unknown member \"\(unknown)\"; expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return members
    }

    func string(_ value: JSONValue, at path: String) throws -> String {
        guard case .string(let string) = value else { throw fail(path, "expected a string, found \(kind(of: value))") }
        return string
    }

    func int(_ value: JSONValue, at path: String) throws -> Int {
        switch value {
        case .integer(let integer): return integer
        case .number(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        default: throw fail(path, "expected a whole number, found \(kind(of: value))")
        }
    }

    func double(_ value: JSONValue, at path: String) throws -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        default: throw fail(path, "expected a number, found \(kind(of: value))")
        }
    }

    func bool(_ value: JSONValue, at path: String) throws -> Bool {
        guard case .bool(let bool) = value else { throw fail(path, "expected true or false, found \(kind(of: value))") }
        return bool
    }

    func array(_ value: JSONValue, at path: String) throws -> [JSONValue] {
        guard case .array(let array) = value else { throw fail(path, "expected an array, found \(kind(of: value))") }
        return array
    }

    /// The one member of an object whose name says what it is (`{"equalTo": …}`), among
    /// `kinds`; `options` may stand beside it.
    func tagged(_ value: JSONValue, at path: String, kinds: [String], options: [String] = []) throws -> (
        kind: String, value: JSONValue, members: [String: JSONValue]
    ) {
        let members = try object(value, at: path, allowed: kinds + options)
        let present = kinds.filter { members[$0] != nil }
        guard present.count == 1, let kind = present.first, let inner = members[kind] else {
            let found = present.isEmpty ? "none" : present.map { "\"\($0)\"" }.joined(separator: " and ")
            throw fail(path, "expected exactly one of \(kinds.map { "\"\($0)\"" }.joined(separator: ", ")), found \(found)")
        }
        return (kind, inner, members)
    }

    /// A JSON path member step: `.name`, or `['name']` when the name is not a plain word.
    static func member(_ path: String, _ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }
        return plain ? "\(path).\(name)" : "\(path)['\(name.replacingOccurrences(of: "'", with: "\\'"))']"
    }

    private func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return "\(bool)"
        case .integer, .number: return "the number \(value)"
        case .string(let string): return "the string \"\(ReportText.bounded(string, limit: 60))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
