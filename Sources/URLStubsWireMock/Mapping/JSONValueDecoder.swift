import Foundation
import URLStubs

/// Decodes the mapping types from a ``JSONValue`` already parsed, instead of from text: a
/// mapping file is read once, by the engine's strict reader, and never scanned again. The
/// errors are `JSONDecoder`'s (`typeMismatch`, `valueNotFound`, `keyNotFound`,
/// `dataCorrupted`, each with its coding path), so ``MappingProblem`` places them the same way.
enum JSONValueDecoder {
    /// `Value` read from `value`.
    static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try Single(value: value, codingPath: []).read()
    }

    /// One value being decoded, and where it is.
    struct Node: Decoder {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw mismatch([String: Any].self, value, at: codingPath) }
            return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let items) = value else { throw mismatch([Any].self, value, at: codingPath) }
            return Unkeyed(items: items, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(value: value, codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> JSONValue {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
            }
            return value
        }

        private func read<T: Decodable>(_ key: Key) throws -> T { try Single(value: member(key), codingPath: codingPath + [key]).read() }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try read(key) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try Node(value: member(key), codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Node(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { Node(value: .object(members), codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { Node(value: try member(key), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        private mutating func next<T>(_ type: T.Type) throws -> Node {
            let path = codingPath + [MemberKey(intValue: currentIndex)!]
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
            }
            defer { currentIndex += 1 }
            return Node(value: items[currentIndex], codingPath: path)
        }

        private mutating func read<T: Decodable>() throws -> T {
            let node = try next(T.self)
            return try Single(value: node.value, codingPath: node.codingPath).read()
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try read() }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try read() }
        mutating func decode(_ type: String.Type) throws -> String { try read() }
        mutating func decode(_ type: Double.Type) throws -> Double { try read() }
        mutating func decode(_ type: Float.Type) throws -> Float { try read() }
        mutating func decode(_ type: Int.Type) throws -> Int { try read() }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try read() }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try read() }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try read() }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try read() }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try read() }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read() }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read() }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read() }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read() }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next([String: Any].self).container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self).unkeyedContainer() }
        mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try read() }
        func decode(_ type: Bool.Type) throws -> Bool { try read() }
        func decode(_ type: String.Type) throws -> String { try read() }
        func decode(_ type: Double.Type) throws -> Double { try read() }
        func decode(_ type: Float.Type) throws -> Float { try read() }
        func decode(_ type: Int.Type) throws -> Int { try read() }
        func decode(_ type: Int8.Type) throws -> Int8 { try read() }
        func decode(_ type: Int16.Type) throws -> Int16 { try read() }
        func decode(_ type: Int32.Type) throws -> Int32 { try read() }
        func decode(_ type: Int64.Type) throws -> Int64 { try read() }
        func decode(_ type: UInt.Type) throws -> UInt { try read() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try read() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try read() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try read() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try read() }

        /// The value as `T`: JSON's own types directly, anything else through its `init(from:)`.
        func read<T: Decodable>() throws -> T {
            switch value {
            case .string(let text) where T.self == String.self: return text as! T
            case .bool(let bool) where T.self == Bool.self: return bool as! T
            case .integer(let integer) where T.self == Int.self: return integer as! T
            default: break
            }
            if T.self == JSONCoding.self { return JSONCoding(value) as! T }
            if let numeric = T.self as? any JSONNumeric.Type { return try numeric.read(value, at: codingPath) as! T }
            if T.self == String.self || T.self == Bool.self { throw mismatch(T.self, value, at: codingPath) }
            if value == .null, !(T.self is any ExpressibleByNilLiteral.Type) {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath, debugDescription: "Expected \(T.self) but found null."))
            }
            return try T(from: Node(value: value, codingPath: codingPath))
        }
    }

    /// `JSONDecoder`'s error for a value of the wrong type.
    static func mismatch(_ type: Any.Type, _ value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(kind(of: value)) instead."))
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number, .integer: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}

/// The number types a mapping reads, converted from JSON's two kinds of number.
protocol JSONNumeric {
    static func read(_ value: JSONValue, at path: [any CodingKey]) throws -> Self
}

extension JSONNumeric where Self: BinaryInteger {
    static func read(_ value: JSONValue, at path: [any CodingKey]) throws -> Self {
        switch value {
        case .integer(let integer):
            if let exact = Self(exactly: integer) { return exact }
        case .number(let number):
            if let exact = Int(exactly: number).flatMap(Self.init(exactly:)) { return exact }
        default: throw JSONValueDecoder.mismatch(Self.self, value, at: path)
        }
        throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Parsed JSON number <\(value)> does not fit in \(Self.self)."))
    }
}

extension JSONNumeric where Self: BinaryFloatingPoint {
    static func read(_ value: JSONValue, at path: [any CodingKey]) throws -> Self {
        switch value {
        case .integer(let integer): return Self(integer)
        case .number(let number): return Self(number)
        default: throw JSONValueDecoder.mismatch(Self.self, value, at: path)
        }
    }
}

extension Int: JSONNumeric {}
extension Int8: JSONNumeric {}
extension Int16: JSONNumeric {}
extension Int32: JSONNumeric {}
extension Int64: JSONNumeric {}
extension UInt: JSONNumeric {}
extension UInt8: JSONNumeric {}
extension UInt16: JSONNumeric {}
extension UInt32: JSONNumeric {}
extension UInt64: JSONNumeric {}
extension Double: JSONNumeric {}
extension Float: JSONNumeric {}
