import Foundation
import URLStubs

/// A ``JSONValue`` that crosses the test-runner link as nested JSON (a stub's JSON body, a
/// matcher's body subset), so a captured message reads as the JSON it carries.
package struct WireJSON: Codable, Sendable, Equatable {
    /// The JSON itself.
    package var value: JSONValue

    /// Wraps `value`.
    package init(_ value: JSONValue) { self.value = value }

    /// Decodes nested JSON.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([WireJSON].self) {
            value = .array(array.map(\.value))
        } else if let object = try? container.decode([String: WireJSON].self) {
            value = .object(object.mapValues(\.value))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a JSON value")
        }
    }

    /// Encodes the JSON as nested JSON.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array.map(WireJSON.init))
        case .object(let object): try container.encode(object.mapValues(WireJSON.init))
        }
    }
}
