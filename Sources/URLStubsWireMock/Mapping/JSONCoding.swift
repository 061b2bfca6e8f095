import Foundation
import URLStubs

/// Reads and writes a ``JSONValue`` through `Codable`: a mapping's arbitrary JSON (`metadata`,
/// `jsonBody`, `equalToJson`, `transformerParameters`). Whole numbers stay integers.
struct JSONCoding: Codable, Sendable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        // The mapping types are read with JSONValueDecoder, which hands JSON values over
        // whole; this probing is for other decoders (an admin request's body).
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                value = .null
                return
            }
            if let bool = try? single.decode(Bool.self) {
                value = .bool(bool)
                return
            }
            if let integer = try? single.decode(Int.self) {
                value = .integer(integer)
                return
            }
            if let number = try? single.decode(Double.self) {
                value = .number(number)
                return
            }
            if let string = try? single.decode(String.self) {
                value = .string(string)
                return
            }
        }
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONCoding.self).value) }
            value = .array(items)
            return
        }
        let object = try decoder.container(keyedBy: MemberKey.self)
        var members: [String: JSONValue] = [:]
        for key in object.allKeys { members[key.stringValue] = try object.decode(JSONCoding.self, forKey: key).value }
        value = .object(members)
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .integer(let integer):
            var single = encoder.singleValueContainer()
            try single.encode(integer)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try single.encode(number)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(JSONCoding(item)) }
        case .object(let members):
            var object = encoder.container(keyedBy: MemberKey.self)
            for key in members.keys.sorted() { try object.encode(JSONCoding(members[key]!), forKey: MemberKey(key)) }
        }
    }
}
