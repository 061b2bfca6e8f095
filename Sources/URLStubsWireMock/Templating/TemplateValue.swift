import Foundation
import URLStubs

/// A value while a template renders: what a path finds, a literal, or a helper's result.
indirect enum TemplateValue: Sendable {
    case null
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    /// A value that may occur several times (a header, a query parameter, a cookie, groups of
    /// `regexExtract`): written as its first value, indexed like a list, as WireMock's
    /// `ListOrSingle` is.
    case multiple([String])
    case list([TemplateValue])
    case json(JSONValue)
    /// A date with how it is written: a Java pattern (or `epoch`, `unix`) and a zone.
    case date(Date, format: String?, zone: TimeZone?)
    /// A member of the request model that has members of its own (`request`, `request.headers`).
    case request(RequestPart)

    enum RequestPart: Sendable {
        case root, headers, query, cookies, pathSegments, path, requestLine, pathParameters
    }

    /// Whether `{{#if}}` takes the value as true (Handlebars.java: not null, false, empty, or zero).
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .string(let text): return !text.isEmpty
        case .integer(let value): return value != 0
        case .number(let value): return value != 0
        case .bool(let value): return value
        case .multiple(let values): return !values.isEmpty
        case .list(let items): return !items.isEmpty
        case .json(let json):
            switch json {
            case .null: return false
            case .bool(let value): return value
            case .string(let text): return !text.isEmpty
            case .array(let items): return !items.isEmpty
            case .object(let members): return !members.isEmpty
            case .integer(let value): return value != 0
            case .number(let value): return value != 0
            }
        case .date, .request: return true
        }
    }

    /// The value as a number, when it is one or is text that reads as one.
    var number: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        case .json(let json): return json.numericValue ?? (json.stringValue.flatMap { Double($0) })
        case .multiple(let values): return values.first.flatMap { Double($0) }
        default: return nil
        }
    }

    /// The value as Java's `toString` writes it: the first of several values, numbers as
    /// written (`3`, `2.5`, `3.0`), JSON objects and arrays as compact JSON.
    func write(into output: inout String) {
        switch self {
        case .null: break
        case .string(let text): output += text
        case .integer(let value): output += String(value)
        case .number(let value): output += Self.javaText(value)
        case .bool(let value): output += value ? "true" : "false"
        case .multiple(let values): output += values.first ?? ""
        case .list(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += ", " }
                item.write(into: &output)
            }
            output += "]"
        case .json(let json): output += json.compactText
        case .date(let date, let format, let zone): Self.writeDate(date, format: format, zone: zone, into: &output)
        case .request: break
        }
    }

    var text: String {
        var output = ""
        write(into: &output)
        return output
    }

    /// `2.5`, `3.0`, `1.0E10` as Java's `Double.toString` writes them.
    static func javaText(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "Infinity" : "-Infinity" }
        let magnitude = abs(value)
        if magnitude >= 1e-3, magnitude < 1e7 || magnitude == 0 {
            let text = String(value)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        }
        if value == 0 { return "0.0" }
        let exponent = Int(log10(magnitude).rounded(.down))
        var mantissa = String(value / pow(10, Double(exponent)))
        if !mantissa.contains(".") { mantissa += ".0" }
        return mantissa + "E" + String(exponent)
    }

    /// A date as WireMock's `RenderableDate` writes it: ISO 8601 without fractions (in UTC as
    /// `…Z`, in a zone with its offset), `epoch` milliseconds, `unix` seconds, or a Java pattern
    /// (in the zone, UTC when none is given, as WireMock's documentation says).
    static func writeDate(_ date: Date, format: String?, zone: TimeZone?, into output: inout String) {
        switch format {
        case "epoch"?: output += String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        case "unix"?: output += String(Int64(date.timeIntervalSince1970.rounded(.down)))
        case let pattern?:
            if let format = try? JavaDateFormat(pattern) {
                format.format(date, in: zone ?? utc, into: &output)
            } else {
                output += "[ERROR: \(pattern) is not a valid date format]"
            }
        case nil:
            let pattern = zone == nil ? isoUTC : isoZoned
            pattern.format(date, in: zone ?? utc, into: &output)
        }
    }

    static let utc = TimeZone(identifier: "UTC")!
    private static let isoUTC = JavaDateFormat.constant("yyyy-MM-dd'T'HH:mm:ssX")
    private static let isoZoned = JavaDateFormat.constant("yyyy-MM-dd'T'HH:mm:ssXXX")
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
