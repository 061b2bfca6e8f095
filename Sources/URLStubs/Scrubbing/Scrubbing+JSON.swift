import Foundation

/// JSON bodies: the members ``Scrubbing/jsonFields`` names, at any depth, in requests and
/// responses alike.
///
/// A scrubbed body keeps its shape, so the app's `Decodable` models still decode a replayed
/// response: under a listed name, each string becomes the placeholder and each number `0`,
/// while booleans, `null`, member names and the nesting of objects and arrays stay as they were
/// (`"token": {"value": "tok-1", "expiresIn": 3600}` becomes
/// `"token": {"value": "<scrubbed>", "expiresIn": 0}`).
extension Scrubbing {
    /// `false` when `body` cannot hold a member named one of `names` (lower-cased): none of them
    /// appears in double quotes, in any case, and no `\u` escape could spell one. It spares
    /// parsing every body that passes through replay and reports.
    static func mayHoldMember(of names: Set<String>, in body: Data) -> Bool {
        guard !names.isEmpty, !body.isEmpty else { return false }
        var lowered = body
        var sawEscape = false
        lowered.withUnsafeMutableBytes { bytes in
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { bytes[index] = byte + 32 }
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") { sawEscape = true }
            }
        }
        return sawEscape || names.contains { lowered.range(of: Data("\"\($0)\"".utf8)) != nil }
    }

    /// `value` with the value of each member named one of `names` (lower-cased) scrubbed, its
    /// shape kept.
    func scrub(_ value: JSONValue, names: Set<String>) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                Dictionary(
                    uniqueKeysWithValues: members.map { key, member in
                        (key, names.contains(key.lowercased()) ? scrubbingLeaves(of: member) : scrub(member, names: names))
                    }))
        case .array(let elements):
            return .array(elements.map { scrub($0, names: names) })
        default:
            return value
        }
    }

    /// A listed member's value: strings become the placeholder, numbers `0`; the rest stays.
    private func scrubbingLeaves(of value: JSONValue) -> JSONValue {
        switch value {
        case .string: return .string(placeholder)
        case .integer: return .integer(0)
        case .number: return .number(0)
        case .object(let members): return .object(members.mapValues(scrubbingLeaves))
        case .array(let elements): return .array(elements.map(scrubbingLeaves))
        case .bool, .null: return value
        }
    }

    /// `true` when `value` holds a member this policy scrubs: a value that may stand for
    /// another (a number scrubbed to `0` holds no placeholder to say so).
    package func holdsScrubbedMember(_ value: JSONValue) -> Bool {
        let names = Set(jsonFields.map { $0.lowercased() })
        guard !names.isEmpty else { return false }
        func holds(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let members): return members.contains { names.contains($0.key.lowercased()) || holds($0.value) }
            case .array(let elements): return elements.contains(where: holds)
            default: return false
            }
        }
        return holds(value)
    }

    /// The values under the members named one of `names`, whose copies elsewhere are scrubbed
    /// too: a listed member's string or whole number, and every string inside a listed object
    /// or array. A number inside one (an `expiresIn`) is scrubbed where it stands only:
    /// replacing every copy of `3600` would mangle the rest of the recording.
    func collectJSONSecrets(_ value: JSONValue, names: Set<String>, into secrets: inout Set<String>) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                guard names.contains(key.lowercased()) else {
                    collectJSONSecrets(member, names: names, into: &secrets)
                    continue
                }
                if case .integer(let number) = member {
                    secrets.insert(String(number))
                } else {
                    collectStrings(member, into: &secrets)
                }
            }
        case .array(let elements):
            for element in elements { collectJSONSecrets(element, names: names, into: &secrets) }
        default:
            break
        }
    }

    private func collectStrings(_ value: JSONValue, into secrets: inout Set<String>) {
        switch value {
        case .string(let text): secrets.insert(text)
        case .object(let members): for member in members.values { collectStrings(member, into: &secrets) }
        case .array(let elements): for element in elements { collectStrings(element, into: &secrets) }
        default: break
        }
    }
}
