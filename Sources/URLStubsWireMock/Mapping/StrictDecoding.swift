import Foundation
import URLStubs

/// A coding key for any member name: the mapping types read every member through it, so that a
/// member they do not know is seen, and refused by name, instead of skipped.
struct MemberKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A mapping member URLStubs refuses, and why: what WireMock would have done with it, and what
/// to write instead. Thrown inside `init(from:)` as the debug description of a
/// `DecodingError.dataCorrupted`, whose coding path places it.
enum MappingProblem {
    /// `name` is not a member of `object`; `known` lists the members that are.
    static func unknownMember(_ name: String, of object: String, known: [String], at path: [any CodingKey]) -> DecodingError {
        let close = known.filter { $0.lowercased() == name.lowercased() || editDistance($0, name) <= 2 }
        let hint = close.first.map { " Did you mean \"\($0)\"?" } ?? ""
        return refused(
            at: path + [MemberKey(name)],
            "a member of \(object) (\(known.joined(separator: ", "))), found \"\(name)\"; WireMock refuses this mapping too "
                + "(Jackson: Unrecognized field \"\(name)\").\(hint)")
    }

    /// A member WireMock knows and URLStubs does not serve: `wireMock` says what WireMock does
    /// with it, `instead` what to write.
    static func unsupported(_ name: String, at path: [any CodingKey], wireMock: String, instead: String) -> DecodingError {
        refused(at: path + [MemberKey(name)], "a member URLStubs serves, found \"\(name)\", which WireMock \(wireMock); \(instead)")
    }

    /// Any other problem at `path`: `expected` is the sentence after "expected".
    static func refused(at path: [any CodingKey], _ expected: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: expected))
    }

    /// The JSON path of a coding path: `$.request.headers.Accept.equalTo`, `$.mappings[2]`.
    static func jsonPath(_ path: [any CodingKey]) -> String {
        var text = "$"
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else if !key.stringValue.isEmpty, key.stringValue.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
                text += "." + key.stringValue
            } else {
                text += "['" + key.stringValue.replacingOccurrences(of: "'", with: "\\'") + "']"
            }
        }
        return text
    }

    /// The error a file's reader throws for `error` (what `JSONDecoder` or a mapping's
    /// `init(from:)` threw) in the file `source`.
    static func fixtureError(_ error: any Error, source: String) -> FixtureError {
        guard let error = error as? DecodingError else {
            return .malformed(source, jsonPath: "$", expected: "a WireMock mapping (\(error))")
        }
        switch error {
        case .dataCorrupted(let context):
            return .malformed(source, jsonPath: jsonPath(context.codingPath), expected: context.debugDescription)
        case .typeMismatch(let type, let context):
            return .malformed(
                source, jsonPath: jsonPath(context.codingPath),
                expected: "\(noun(for: type)); WireMock refuses this mapping too (Jackson cannot read the value as one)")
        case .valueNotFound(let type, let context):
            return .malformed(
                source, jsonPath: jsonPath(context.codingPath), expected: "\(noun(for: type)), found null; WireMock refuses null here too")
        case .keyNotFound(let key, let context):
            return .malformed(source, jsonPath: jsonPath(context.codingPath + [key]), expected: "the member \"\(key.stringValue)\"")
        @unknown default:
            return .malformed(source, jsonPath: "$", expected: "a WireMock mapping (\(error))")
        }
    }

    private static func noun(for type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a whole number"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of another type (\(name))"
        }
    }

    /// Levenshtein distance, for "did you mean" hints on short member names.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension KeyedDecodingContainer where Key == MemberKey {
    /// Refuses the first member not in `known` (members in `unsupported` are refused with their
    /// own explanation, `(what WireMock does with it, what to write instead)`), in sorted order
    /// so that the error is the same on every run.
    func refuseUnknownMembers(
        of object: String, known: [String], unsupported: [String: (wireMock: String, instead: String)] = [:]
    ) throws {
        let knownSet = Set(known)
        for key in allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !knownSet.contains(key.stringValue) {
            if let reason = unsupported[key.stringValue] {
                throw MappingProblem.unsupported(key.stringValue, at: codingPath, wireMock: reason.wireMock, instead: reason.instead)
            }
            throw MappingProblem.unknownMember(key.stringValue, of: object, known: known, at: codingPath)
        }
    }

    func value<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T? {
        try decodeIfPresent(T.self, forKey: MemberKey(name))
    }

    func has(_ name: String) -> Bool { contains(MemberKey(name)) }

    /// A JSON value of any kind (`metadata`, `jsonBody`, `equalToJson`), or `nil` when absent.
    func json(_ name: String) throws -> JSONValue? {
        try decodeIfPresent(JSONCoding.self, forKey: MemberKey(name))?.value
    }
}

extension KeyedEncodingContainer where Key == MemberKey {
    mutating func put<T: Encodable>(_ value: T?, _ name: String) throws {
        if let value { try encode(value, forKey: MemberKey(name)) }
    }

    mutating func putJSON(_ value: JSONValue?, _ name: String) throws {
        if let value { try encode(JSONCoding(value), forKey: MemberKey(name)) }
    }
}
