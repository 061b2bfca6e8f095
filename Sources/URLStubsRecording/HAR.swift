import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Reads and writes HAR 1.2 archives (the format browser developer tools, Charles, Proxyman
/// and mitmproxy export).
public enum HAR {
    // MARK: Reading

    /// The entries of a HAR file, in order.
    /// - Throws: `FixtureError` with the JSON path of the first problem (a text that is not
    ///   JSON: the reader's reason, line, column and byte offset), and
    ///   `FixtureError.Kind.notFound` when nothing is at `url` (the folder and the closest names).
    ///   A path that is a folder, a FIFO or another special file, or a file that cannot be read,
    ///   throws a `FixtureError` (`FixtureError.Kind.unreadable`) naming the full path and
    ///   what to do (a FIFO is never opened: a read would wait for a writer).
    public static func read(contentsOf url: URL) throws -> [HAREntry] {
        let data = try ArchiveFileCheck.contents(of: url)
        return try read(data, source: url.lastPathComponent)
    }

    /// The entries of HAR data; `source` names it in errors.
    /// - Throws: `FixtureError` (`FixtureError.Kind.malformed`) with the JSON path of the
    ///   first problem and what was expected there.
    public static func read(_ data: Data, source: String = "HAR") throws -> [HAREntry] {
        let root: JSONValue
        do {
            root = try JSONValue.parsing(data)
        } catch {
            guard let expected = JSONValue.expectation(after: error) else { throw error }
            throw FixtureError.malformed(source, jsonPath: "$", expected: expected)
        }
        let reader = Reader(source: source, dates: DateReader())
        let log = try reader.object(try reader.member("log", of: root, at: "$"), at: "$.log")
        let entries = try reader.array(try reader.member("entries", of: .object(log), at: "$.log"), at: "$.log.entries")
        return try entries.enumerated().map { index, entry in
            try reader.entry(entry, at: "$.log.entries[\(index)]")
        }
    }

    struct Reader {
        let source: String
        let dates: DateReader

        func fail(_ path: String, _ expected: String) -> FixtureError { FixtureError.malformed(source, jsonPath: path, expected: expected) }

        func member(_ name: String, of value: JSONValue, at path: String) throws -> JSONValue {
            guard case .object(let members) = value else { throw fail(path, "an object") }
            guard let member = members[name] else { throw fail("\(path).\(name)", "a value (it is missing)") }
            return member
        }

        func optional(_ name: String, of members: [String: JSONValue]) -> JSONValue? {
            guard let value = members[name], value != .null else { return nil }
            return value
        }

        func object(_ value: JSONValue, at path: String) throws -> [String: JSONValue] {
            guard case .object(let members) = value else { throw fail(path, "an object") }
            return members
        }

        func array(_ value: JSONValue, at path: String) throws -> [JSONValue] {
            guard case .array(let values) = value else { throw fail(path, "an array") }
            return values
        }

        func string(_ value: JSONValue?, at path: String) throws -> String {
            guard case .string(let text)? = value else { throw fail(path, "a string") }
            return text
        }

        /// A status code: a JSON number without a fraction, from 100 to 599, or 0 for a request
        /// that got no response. A string (`"200"`) or a fraction (`200.5`) is an error, not a
        /// guess: a tool that writes them writes something else wrong too.
        func statusCode(_ value: JSONValue?, at path: String) throws -> Int {
            let expected = "a status code from 100 to 599 (or 0 for a failed request)"
            let status: Int
            switch value {
            case .integer(let number)?:
                status = number
            case .number(let number)?:
                // Range-check the Double first: Int(_:) traps on infinity, NaN and huge values.
                guard number >= 0, number < 600, number.rounded() == number else {
                    throw fail(path, "\(expected), got \(number)")
                }
                status = Int(number)
            case .string(let text)?:
                throw fail(path, "a number, got the string \"\(text)\"")
            case nil:
                throw fail(path, "a number (it is missing)")
            default:
                throw fail(path, "a number")
            }
            guard status == 0 || (100...599).contains(status) else { throw fail(path, "\(expected), got \(status)") }
            return status
        }

        func headers(_ value: JSONValue?, at path: String) throws -> HeaderFields {
            guard let value else { return [:] }
            return HeaderFields(
                try array(value, at: path).enumerated().map { index, header -> HeaderFields.Field in
                    let members = try object(header, at: "\(path)[\(index)]")
                    return (
                        name: try string(members["name"], at: "\(path)[\(index)].name"),
                        value: try string(optional("value", of: members) ?? .string(""), at: "\(path)[\(index)].value")
                    )
                })
        }

        func entry(_ value: JSONValue, at path: String) throws -> HAREntry {
            let entry = try object(value, at: path)
            let request = try object(try member("request", of: value, at: path), at: "\(path).request")
            let response = try object(try member("response", of: value, at: path), at: "\(path).response")
            let urlText = try string(request["url"], at: "\(path).request.url")
            guard let url = URL(string: urlText), url.scheme != nil else { throw fail("\(path).request.url", "an absolute URL, got \"\(urlText)\"") }
            var requestBody: Data?
            var requestMime: String?
            if let postData = optional("postData", of: request) {
                let post = try object(postData, at: "\(path).request.postData")
                requestMime = optional("mimeType", of: post).flatMap { if case .string(let s) = $0 { return s } else { return nil } }
                if let text = optional("text", of: post) {
                    let body = try string(text, at: "\(path).request.postData.text")
                    if case .string("base64")? = optional("encoding", of: post) {
                        guard let decoded = Data(base64Encoded: body) else { throw fail("\(path).request.postData.text", "base64 text") }
                        requestBody = decoded
                    } else {
                        requestBody = Data(body.utf8)
                    }
                }
            }
            let content = try object(try member("content", of: .object(response), at: "\(path).response"), at: "\(path).response.content")
            var body = Data()
            if let text = optional("text", of: content) {
                let textValue = try string(text, at: "\(path).response.content.text")
                if case .string(let encoding)? = optional("encoding", of: content), encoding.lowercased() == "base64" {
                    guard let decoded = Data(base64Encoded: textValue, options: .ignoreUnknownCharacters) else {
                        throw fail("\(path).response.content.text", "base64 text (content.encoding is \"base64\")")
                    }
                    body = decoded
                } else {
                    body = Data(textValue.utf8)
                }
            }
            var responseHeaders = try headers(optional("headers", of: response), at: "\(path).response.headers")
            if case .string(let redirect)? = optional("redirectURL", of: response), !redirect.isEmpty,
                !responseHeaders.contains(name: "Location")
            {
                responseHeaders.append(name: "Location", value: redirect)
            }
            let status = try statusCode(response["status"], at: "\(path).response.status")
            // Status 0: the request got no response (Chrome records the reason in `_error`).
            var failure: String?
            if status == 0 {
                if case .string(let reason)? = optional("_error", of: response) ?? optional("_error", of: entry), !reason.isEmpty {
                    failure = reason
                } else {
                    failure = "no response (status 0)"
                }
            }
            let started = optional("startedDateTime", of: entry).flatMap { value -> Date? in
                if case .string(let text) = value { return dates.date(from: text) }
                return nil
            }
            return HAREntry(
                startedDateTime: started ?? Date(timeIntervalSince1970: 0),
                time: optional("time", of: entry).flatMap(\.numericValue) ?? 0,
                method: try string(request["method"], at: "\(path).request.method"), url: url,
                requestHeaders: try headers(optional("headers", of: request), at: "\(path).request.headers"),
                requestBody: requestBody, requestMimeType: requestMime, status: status,
                statusText: optional("statusText", of: response).flatMap { if case .string(let s) = $0 { return s } else { return nil } } ?? "",
                httpVersion: optional("httpVersion", of: response).flatMap { if case .string(let s) = $0 { return s } else { return nil } }
                    ?? "HTTP/1.1",
                responseHeaders: responseHeaders, responseBody: body,
                responseMimeType: optional("mimeType", of: content).flatMap { if case .string(let s) = $0 { return s } else { return nil } } ?? "",
                failure: failure)
        }
    }

    static func parseDate(_ text: String) -> Date? {
        DateReader().date(from: text)
    }

    /// `startedDateTime` values, for one archive: the common shape
    /// (`2024-05-01T10:00:00.123Z`, or with `+02:00`) is read directly, the rest by
    /// `ISO8601DateFormatter`s made once per archive (making one costs more than reading a
    /// hundred dates with it).
    final class DateReader {
        private lazy var fractional: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter
        }()
        private lazy var whole: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter
        }()

        func date(from text: String) -> Date? {
            if let date = Self.commonDate(text) { return date }
            return fractional.date(from: text) ?? whole.date(from: text)
        }

        /// `YYYY-MM-DDTHH:MM:SS[.mmm](Z|±HH:MM)`, with exactly three fraction digits if any,
        /// as the formatter reads it (milliseconds since 1970, then seconds since 2001); `nil`
        /// for any other shape, an out-of-range field or a year before 1583 (the formatter's
        /// calendar is Julian before October 1582), which go to the formatter.
        static func commonDate(_ text: String) -> Date? {
            let bytes = Array(text.utf8)
            guard bytes.count == 20 || bytes.count == 24 || bytes.count == 25 || bytes.count == 29 else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let byte = bytes[index]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                year >= 1583, (1...12).contains(month), hour < 24, minute < 60, second < 60
            else { return nil }
            var index = 19
            var milliseconds = 0
            if bytes[index] == UInt8(ascii: ".") {
                guard bytes.count >= 24, let fraction = number(20..<23) else { return nil }
                milliseconds = fraction
                index = 23
            }
            var offsetSeconds = 0
            switch bytes.count - index {
            case 1:
                guard bytes[index] == UInt8(ascii: "Z") else { return nil }
            case 6:
                guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: ":"),
                    let offsetHours = number((index + 1)..<(index + 3)), let offsetMinutes = number((index + 4)..<(index + 6)),
                    offsetHours < 24, offsetMinutes < 60
                else { return nil }
                offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            default:
                return nil
            }
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let monthDays = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard day >= 1, day <= monthDays[month - 1] else { return nil }
            // Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's
            // days_from_civil).
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
            let millisecondsSince1970 = Double(seconds) * 1000 + Double(milliseconds)
            return Date(timeIntervalSinceReferenceDate: millisecondsSince1970 / 1000 - Date.timeIntervalBetween1970AndReferenceDate)
        }
    }
}
