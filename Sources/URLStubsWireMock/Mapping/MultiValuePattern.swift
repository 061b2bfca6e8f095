import Foundation
import URLStubs

extension WireMockMapping {
    /// How WireMock matches a value that may occur several times (a header, a query parameter,
    /// a form field): one ``StringValuePattern``, or `hasExactly`/`includes` with a list.
    ///
    /// ```swift
    /// let ids = WireMockMapping.MultiValuePattern.includes([.equalTo("1", caseInsensitive: false)])
    /// ids.evaluate(["1", "2"])   // true
    /// ```
    public enum MultiValuePattern: Sendable, Hashable {
        /// One pattern, which some value (or the missing value) matches.
        case single(StringValuePattern)
        /// As many values as patterns, each pattern matching a different value.
        case hasExactly([StringValuePattern])
        /// Each pattern matches some value; other values may be present.
        case includes([StringValuePattern])
    }

    /// A pattern for the request body: a ``StringValuePattern`` on the body as text, or
    /// `binaryEqualTo` (base64 in the mapping) on its bytes.
    public enum BodyPattern: Sendable, Hashable {
        /// The body as UTF-8 text matches the pattern.
        case value(StringValuePattern)
        /// The body is exactly these bytes.
        case binaryEqualTo(Data)
    }
}

extension WireMockMapping.MultiValuePattern: Codable {
    /// Reads `{"hasExactly": [...]}`, `{"includes": [...]}` or a value pattern.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        for name in ["hasExactly", "includes"] where object.has(name) {
            try object.refuseUnknownMembers(of: "a \"\(name)\" pattern", known: [name])
            let patterns = try object.decode([WireMockMapping.StringValuePattern].self, forKey: MemberKey(name))
            self = name == "hasExactly" ? .hasExactly(patterns) : .includes(patterns)
            return
        }
        self = .single(try WireMockMapping.StringValuePattern.read(object, at: decoder.codingPath))
    }

    /// Writes the pattern as WireMock writes it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .single(let pattern): try pattern.encode(to: encoder)
        case .hasExactly(let patterns):
            var object = encoder.container(keyedBy: MemberKey.self)
            try object.put(patterns, "hasExactly")
        case .includes(let patterns):
            var object = encoder.container(keyedBy: MemberKey.self)
            try object.put(patterns, "includes")
        }
    }
}

extension WireMockMapping.BodyPattern: Codable {
    /// Reads `{"binaryEqualTo": "<base64>"}` or a value pattern.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        if object.has("binaryEqualTo") {
            try object.refuseUnknownMembers(of: "a \"binaryEqualTo\" pattern", known: ["binaryEqualTo"])
            let text = try object.decode(String.self, forKey: MemberKey("binaryEqualTo"))
            guard let data = Data(base64Encoded: text) else {
                throw MappingProblem.refused(at: decoder.codingPath + [MemberKey("binaryEqualTo")], "base64 text; WireMock refuses it too")
            }
            self = .binaryEqualTo(data)
            return
        }
        self = .value(try WireMockMapping.StringValuePattern.read(object, at: decoder.codingPath))
    }

    /// Writes the pattern as WireMock writes it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let pattern): try pattern.encode(to: encoder)
        case .binaryEqualTo(let data):
            var object = encoder.container(keyedBy: MemberKey.self)
            try object.put(data.base64EncodedString(), "binaryEqualTo")
        }
    }
}
