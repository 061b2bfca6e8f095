import Foundation
import URLStubs

/// Encodes the mapping types straight to a ``JSONValue``, without writing and reading JSON
/// text: a declaration keeps WireMock's JSON for what the engine cannot say, built this way.
enum JSONValueEncoder {
    /// `value` as JSON.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let slot = Slot()
        try Single(slot: slot, codingPath: []).set(value)
        return slot.value
    }

    /// Where one value goes: filled once, by a container.
    final class Slot {
        enum Content {
            case value(JSONValue)
            case object([String: Slot])
            case array([Slot])
        }
        var content = Content.value(.null)

        var value: JSONValue {
            switch content {
            case .value(let value): return value
            case .object(let members): return .object(members.mapValues(\.value))
            case .array(let items): return .array(items.map(\.value))
            }
        }

        func members() -> [String: Slot] {
            if case .object(let members) = content { return members }
            content = .object([:])
            return [:]
        }

        func items() -> [Slot] {
            if case .array(let items) = content { return items }
            content = .array([])
            return []
        }

        func child(named name: String) -> Slot {
            var members = members()
            let slot = Slot()
            members[name] = slot
            content = .object(members)
            return slot
        }

        func appended() -> Slot {
            var items = items()
            let slot = Slot()
            items.append(slot)
            content = .array(items)
            return slot
        }
    }

    struct Node: Encoder {
        let slot: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            _ = slot.members()
            return KeyedEncodingContainer(Keyed<Key>(slot: slot, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            _ = slot.items()
            return Unkeyed(slot: slot, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(slot: slot, codingPath: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let slot: Slot
        let codingPath: [any CodingKey]

        private func put(_ value: some Encodable, _ key: Key) throws {
            try Single(slot: slot.child(named: key.stringValue), codingPath: codingPath + [key]).set(value)
        }

        mutating func encodeNil(forKey key: Key) throws { slot.child(named: key.stringValue).content = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            Node(slot: slot.child(named: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Node(slot: slot.child(named: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { Node(slot: slot.child(named: "super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Node(slot: slot.child(named: key.stringValue), codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        var count: Int { slot.items().count }

        private func add(_ value: some Encodable) throws {
            let path = codingPath + [MemberKey(intValue: count)!]
            try Single(slot: slot.appended(), codingPath: path).set(value)
        }

        mutating func encodeNil() throws { slot.appended().content = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try add(value) }
        mutating func encode(_ value: Bool) throws { try add(value) }
        mutating func encode(_ value: String) throws { try add(value) }
        mutating func encode(_ value: Double) throws { try add(value) }
        mutating func encode(_ value: Float) throws { try add(value) }
        mutating func encode(_ value: Int) throws { try add(value) }
        mutating func encode(_ value: Int8) throws { try add(value) }
        mutating func encode(_ value: Int16) throws { try add(value) }
        mutating func encode(_ value: Int32) throws { try add(value) }
        mutating func encode(_ value: Int64) throws { try add(value) }
        mutating func encode(_ value: UInt) throws { try add(value) }
        mutating func encode(_ value: UInt8) throws { try add(value) }
        mutating func encode(_ value: UInt16) throws { try add(value) }
        mutating func encode(_ value: UInt32) throws { try add(value) }
        mutating func encode(_ value: UInt64) throws { try add(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            Node(slot: slot.appended(), codingPath: codingPath).container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            Node(slot: slot.appended(), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { Node(slot: slot.appended(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { slot.content = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { try set(value) }
        mutating func encode(_ value: Bool) throws { try set(value) }
        mutating func encode(_ value: String) throws { try set(value) }
        mutating func encode(_ value: Double) throws { try set(value) }
        mutating func encode(_ value: Float) throws { try set(value) }
        mutating func encode(_ value: Int) throws { try set(value) }
        mutating func encode(_ value: Int8) throws { try set(value) }
        mutating func encode(_ value: Int16) throws { try set(value) }
        mutating func encode(_ value: Int32) throws { try set(value) }
        mutating func encode(_ value: Int64) throws { try set(value) }
        mutating func encode(_ value: UInt) throws { try set(value) }
        mutating func encode(_ value: UInt8) throws { try set(value) }
        mutating func encode(_ value: UInt16) throws { try set(value) }
        mutating func encode(_ value: UInt32) throws { try set(value) }
        mutating func encode(_ value: UInt64) throws { try set(value) }

        /// `value` as JSON: JSON's own types directly, anything else through its `encode(to:)`.
        func set<T: Encodable>(_ value: T) throws {
            switch value {
            case let text as String: slot.content = .value(.string(text))
            case let bool as Bool: slot.content = .value(.bool(bool))
            case let coding as JSONCoding: slot.content = .value(coding.value)
            case let integer as any BinaryInteger:
                guard let exact = Int(exactly: integer) else {
                    throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(integer) does not fit in Int"))
                }
                slot.content = .value(.integer(exact))
            case let number as Double: slot.content = .value(.number(number))
            case let number as Float: slot.content = .value(.number(Double(number)))
            case let data as Data: slot.content = .value(.string(data.base64EncodedString()))
            default: try value.encode(to: Node(slot: slot, codingPath: codingPath))
            }
        }
    }
}
