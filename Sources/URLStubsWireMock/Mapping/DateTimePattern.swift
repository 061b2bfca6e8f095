import Foundation
import URLStubs

extension WireMockMapping {
    /// `before`, `after` or `equalToDateTime`: a date/time compared with an expected one, a
    /// literal (`2021-05-01T00:00:00Z`) or an offset from now (`now +3 days`).
    ///
    /// ```swift
    /// let pattern = WireMockMapping.DateTimePattern(.before, expected: "now +3 days")
    /// WireMockMapping.StringValuePattern.dateTime(pattern).evaluate("2021-06-24T13:40:27Z")   // true
    /// ```
    ///
    /// - Important: A zoned expected date compared with a local actual one reads the actual one
    ///   in the system's time zone; a local expected date compares with the wall-clock time of
    ///   a zoned actual one, as WireMock does. `now` is zoned.
    public struct DateTimePattern: Sendable, Hashable {
        /// Which way the actual date must compare.
        public enum Comparison: String, Sendable, Hashable {
            /// Strictly earlier than the expected date.
            case before
            /// Strictly later than the expected date.
            case after
            /// The same instant (or the same wall-clock time, for local dates).
            case equalToDateTime
        }

        /// Which way the actual date must compare.
        public var comparison: Comparison
        /// The expected date: ISO 8601 or an HTTP date, `now`, or `now ±<amount> <unit>`.
        public var expected: String
        /// `expectedOffset`: an amount added to the expected date.
        public var expectedOffset: Int?
        /// `expectedOffsetUnit`: `seconds`, `minutes`, `hours`, `days`, `months` or `years`.
        public var expectedOffsetUnit: String?
        /// `actualFormat`: a Java date pattern, `epoch` or `unix`, for the actual value.
        public var actualFormat: String?
        /// `truncateExpected`, such as `first day of month`.
        public var truncateExpected: String?
        /// `truncateActual`, such as `first hour of day`.
        public var truncateActual: String?
        /// `applyTruncationLast`: offset the expected date first, then truncate it.
        public var applyTruncationLast: Bool

        /// A pattern comparing with `expected`; the options are WireMock's members of the same names.
        public init(
            _ comparison: Comparison, expected: String, expectedOffset: Int? = nil, expectedOffsetUnit: String? = nil,
            actualFormat: String? = nil, truncateExpected: String? = nil, truncateActual: String? = nil, applyTruncationLast: Bool = false
        ) {
            self.comparison = comparison
            self.expected = expected
            self.expectedOffset = expectedOffset
            self.expectedOffsetUnit = expectedOffsetUnit
            self.actualFormat = actualFormat
            self.truncateExpected = truncateExpected
            self.truncateActual = truncateActual
            self.applyTruncationLast = applyTruncationLast
        }

        static let modifiers = ["actualFormat", "truncateExpected", "truncateActual", "applyTruncationLast", "expectedOffset", "expectedOffsetUnit"]

        static func read(_ object: KeyedDecodingContainer<MemberKey>, comparison name: String, at path: [any CodingKey]) throws -> Self {
            let pattern = Self(
                Comparison(rawValue: name)!, expected: try object.decode(String.self, forKey: MemberKey(name)),
                expectedOffset: try object.value("expectedOffset"), expectedOffsetUnit: try object.value("expectedOffsetUnit"),
                actualFormat: try object.value("actualFormat"), truncateExpected: try object.value("truncateExpected"),
                truncateActual: try object.value("truncateActual"), applyTruncationLast: try object.value("applyTruncationLast") ?? false)
            if DateOffset(pattern.expected) == nil, DateTimeParsing.parse(pattern.expected) == nil {
                throw MappingProblem.refused(
                    at: path + [MemberKey(name)],
                    "an ISO 8601 or HTTP date, \"now\" or \"now +<amount> <unit>\", found \"\(pattern.expected)\"; WireMock refuses it too")
            }
            if let unit = pattern.expectedOffsetUnit, DateOffset.Unit(rawValue: unit.lowercased()) == nil {
                throw MappingProblem.refused(
                    at: path + [MemberKey("expectedOffsetUnit")],
                    "one of \(DateOffset.Unit.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(unit)\"; WireMock refuses it too")
            }
            for (member, value) in [("truncateExpected", pattern.truncateExpected), ("truncateActual", pattern.truncateActual)] {
                if let value, DateTruncation(rawValue: value) == nil {
                    throw MappingProblem.refused(
                        at: path + [MemberKey(member)],
                        "one of \(DateTruncation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \"\(value)\"; "
                            + "WireMock refuses it too")
                }
            }
            if let format = pattern.actualFormat, format != "epoch", format != "unix" {
                do {
                    _ = try JavaDateFormat(format)
                } catch {
                    throw MappingProblem.refused(at: path + [MemberKey("actualFormat")], "a Java date pattern, but \(error)")
                }
            }
            return pattern
        }

        func write(into object: inout KeyedEncodingContainer<MemberKey>) throws {
            try object.put(expected, comparison.rawValue)
            try object.put(actualFormat, "actualFormat")
            try object.put(truncateExpected, "truncateExpected")
            try object.put(truncateActual, "truncateActual")
            if applyTruncationLast { try object.put(true, "applyTruncationLast") }
            try object.put(expectedOffset, "expectedOffset")
            try object.put(expectedOffsetUnit, "expectedOffsetUnit")
        }

        /// Whether `actual` compares as the pattern asks, with `now` as the current moment.
        /// A value that does not read as a date does not match.
        public func evaluate(_ actual: String?, now: Date = Date()) -> Bool {
            guard let actual, let expected = expectedTime(now: now) else { return false }
            let format = actualFormat.flatMap { $0 == "epoch" || $0 == "unix" ? nil : try? JavaDateFormat($0) }
            guard var actualTime = DateTimeParsing.parse(actual, format: format, named: actualFormat) else { return false }
            if let truncation = truncateActual.flatMap(DateTruncation.init(rawValue:)) { actualTime = truncation.applied(to: actualTime) }
            let (left, right): (Double, Double)
            if expected.offset == nil {
                // A local expected date: the actual one's wall clock, its zone stripped.
                (left, right) = (actualTime.wallSeconds, expected.wallSeconds)
            } else {
                (left, right) = (actualTime.date().timeIntervalSince1970, expected.date().timeIntervalSince1970)
            }
            switch comparison {
            case .before: return left < right
            case .after: return left > right
            case .equalToDateTime: return left == right
            }
        }

        /// The expected date, offset and truncated in the order `applyTruncationLast` says.
        func expectedTime(now: Date) -> CivilTime? {
            var time: CivilTime
            var offsets: [DateOffset] = []
            if let relative = DateOffset(expected) {
                time = CivilTime(now, in: .current)
                offsets.append(relative)
            } else if let literal = DateTimeParsing.parse(expected) {
                time = literal
            } else {
                return nil
            }
            if let amount = expectedOffset, let unit = DateOffset.Unit(rawValue: (expectedOffsetUnit ?? "days").lowercased()) {
                offsets.append(DateOffset(amount: amount, unit: unit))
            }
            let truncation = truncateExpected.flatMap(DateTruncation.init(rawValue:))
            if !applyTruncationLast, let truncation { time = truncation.applied(to: time) }
            for offset in offsets { time = offset.applied(to: time) }
            if applyTruncationLast, let truncation { time = truncation.applied(to: time) }
            return time
        }
    }
}
