import Foundation

extension WireMockMapping {
    /// `delayDistribution`: a random delay before the response, drawn per request.
    ///
    /// ```swift
    /// let delay = WireMockMapping.DelayDistribution.uniform(lower: 15, upper: 25)
    /// ```
    public enum DelayDistribution: Sendable, Hashable, Codable {
        /// `{"type": "uniform", "lower": 15, "upper": 25}`: milliseconds, evenly spread.
        case uniform(lower: Int, upper: Int)
        /// `{"type": "lognormal", "median": 80, "sigma": 0.4}`: milliseconds, long-tailed;
        /// `maxValue` caps a draw.
        case lognormal(median: Double, sigma: Double, maxValue: Double?)
        /// `{"type": "fixed", "milliseconds": 100}`.
        case fixed(milliseconds: Int)

        private static let members = ["uniform": ["lower", "upper"], "lognormal": ["median", "sigma", "maxValue"], "fixed": ["milliseconds"]]

        /// Reads the object WireMock writes, refusing an unknown `type` or member.
        public init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: MemberKey.self)
            let type = try object.decode(String.self, forKey: MemberKey("type"))
            guard let members = Self.members[type] else {
                throw MappingProblem.refused(
                    at: decoder.codingPath + [MemberKey("type")],
                    "\"uniform\", \"lognormal\" or \"fixed\", found \"\(type)\"; WireMock refuses this mapping too")
            }
            try object.refuseUnknownMembers(of: "a \(type) delay distribution", known: ["type"] + members)
            switch type {
            case "uniform":
                self = .uniform(
                    lower: try object.decode(Int.self, forKey: MemberKey("lower")), upper: try object.decode(Int.self, forKey: MemberKey("upper")))
            case "lognormal":
                self = .lognormal(
                    median: try object.decode(Double.self, forKey: MemberKey("median")),
                    sigma: try object.decode(Double.self, forKey: MemberKey("sigma")), maxValue: try object.value("maxValue"))
            default:
                self = .fixed(milliseconds: try object.decode(Int.self, forKey: MemberKey("milliseconds")))
            }
        }

        /// Writes the object WireMock writes.
        public func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: MemberKey.self)
            switch self {
            case .uniform(let lower, let upper):
                try object.put("uniform", "type")
                try object.put(lower, "lower")
                try object.put(upper, "upper")
            case .lognormal(let median, let sigma, let maxValue):
                try object.put("lognormal", "type")
                try object.put(median, "median")
                try object.put(sigma, "sigma")
                try object.put(maxValue, "maxValue")
            case .fixed(let milliseconds):
                try object.put("fixed", "type")
                try object.put(milliseconds, "milliseconds")
            }
        }

        /// One delay in milliseconds, drawn with `random` (seed it to repeat a run).
        public func sample(using random: inout some RandomNumberGenerator) -> Double {
            switch self {
            case .uniform(let lower, let upper): return Double(Int.random(in: min(lower, upper)...max(lower, upper), using: &random))
            case .fixed(let milliseconds): return Double(milliseconds)
            case .lognormal(let median, let sigma, let maxValue):
                // Box–Muller: a standard normal draw, then median · e^(σ·z).
                let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &random)
                let u2 = Double.random(in: 0..<1, using: &random)
                let z = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                let value = median * exp(sigma * z)
                return maxValue.map { min($0, value) } ?? value
            }
        }
    }

    /// `chunkedDribbleDelay`: the body sent in `numberOfChunks` pieces spread over
    /// `totalDuration` milliseconds.
    public struct ChunkedDribbleDelay: Sendable, Hashable, Codable {
        /// How many pieces the body is cut into.
        public var numberOfChunks: Int
        /// Milliseconds from the first piece to the last.
        public var totalDuration: Int

        /// A dribble of `numberOfChunks` pieces over `totalDuration` milliseconds.
        public init(numberOfChunks: Int, totalDuration: Int) {
            self.numberOfChunks = numberOfChunks
            self.totalDuration = totalDuration
        }

        /// Reads the object WireMock writes, refusing other members.
        public init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: MemberKey.self)
            try object.refuseUnknownMembers(of: "chunkedDribbleDelay", known: ["numberOfChunks", "totalDuration"])
            numberOfChunks = try object.decode(Int.self, forKey: MemberKey("numberOfChunks"))
            totalDuration = try object.decode(Int.self, forKey: MemberKey("totalDuration"))
            guard numberOfChunks >= 1 else {
                throw MappingProblem.refused(at: decoder.codingPath + [MemberKey("numberOfChunks")], "at least 1 chunk")
            }
        }

        /// Writes the object WireMock writes.
        public func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: MemberKey.self)
            try object.put(numberOfChunks, "numberOfChunks")
            try object.put(totalDuration, "totalDuration")
        }
    }

    /// `fault`: a broken response WireMock sends instead of a well-formed one.
    public enum Fault: String, Sendable, Hashable, Codable, CaseIterable {
        /// The connection is reset (TCP RST) at once.
        case connectionResetByPeer = "CONNECTION_RESET_BY_PEER"
        /// The connection closes without a response.
        case emptyResponse = "EMPTY_RESPONSE"
        /// A 200 head, then a chunk that is not valid chunked encoding, then the connection closes.
        case malformedResponseChunk = "MALFORMED_RESPONSE_CHUNK"
        /// Random bytes, then the connection closes.
        case randomDataThenClose = "RANDOM_DATA_THEN_CLOSE"

        /// Reads WireMock's name for the fault, refusing any other.
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let fault = Self(rawValue: name) else {
                throw MappingProblem.refused(
                    at: decoder.codingPath,
                    "one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(name)\"; WireMock refuses this mapping too")
            }
            self = fault
        }
    }
}
