import Foundation
import URLStubs

// What a helper's call can be checked for when the template is read, so that a mistake is
// an error at load, with its position, rather than an `[ERROR]` in a response.
extension TemplateParser {
    /// patterns, random value types, operators) and compiles the literal argument.
    func compile(
        _ helper: TemplateHelper, parameters: [TemplateExpression], hash: [(name: String, value: TemplateExpression)], at offset: Int
    ) throws -> CompiledArgument {
        func literal(_ index: Int) -> String? {
            guard index < parameters.count, case .literal(.string(let text)) = parameters[index] else { return nil }
            return text
        }
        func hashLiteral(_ name: String) -> String? {
            guard case .literal(.string(let text))? = hash.first(where: { $0.name == name })?.value else { return nil }
            return text
        }
        func require(_ count: Int, _ usage: String) throws {
            if parameters.count < count { throw fail(at: offset, "\(helper.rawValue) with \(parameters.count) parameter(s); write \(usage)") }
        }
        switch helper {
        case .jsonPath:
            try require(2, "{{jsonPath request.body '$.path'}}")
            guard let expression = literal(1) else { return .none }
            do {
                return .jsonPath(try WireMockJSONPath(expression))
            } catch {
                throw fail(at: offset, "jsonPath's expression: \(error)")
            }
        case .regexExtract:
            try require(2, "{{regexExtract request.body '[A-Z]+'}}")
            guard let pattern = literal(1) else { return .none }
            do {
                return .regex(try CompiledRegex(pattern))
            } catch {
                throw fail(at: offset, "regexExtract's regular expression /\(pattern)/, which does not compile")
            }
        case .math:
            try require(3, "{{math 1 '+' 2}}")
            if let op = literal(1), !["+", "-", "*", "x", "/", "%"].contains(op) {
                throw fail(at: offset, "math's operator \"\(op)\"; use +, -, *, / or %")
            }
        case .randomValue:
            if let type = hashLiteral("type"),
                !["ALPHANUMERIC", "ALPHABETIC", "NUMERIC", "ALPHANUMERIC_AND_SYMBOLS", "UUID", "HEXADECIMAL"].contains(type)
            {
                throw fail(
                    at: offset, "randomValue's type \"\(type)\"; use ALPHANUMERIC, ALPHABETIC, NUMERIC, ALPHANUMERIC_AND_SYMBOLS, HEXADECIMAL or UUID"
                )
            }
        case .now, .date, .parseDate:
            if helper == .parseDate { try require(1, "{{parseDate request.headers.MyDate}}") }
            if let zone = hashLiteral("timezone"), TimeZone(identifier: zone) == nil {
                throw fail(at: offset, "the time zone \"\(zone)\", which is not a zone identifier such as Australia/Sydney")
            }
            if let offsetText = hashLiteral("offset"), DateOffset(offsetText) == nil {
                throw fail(at: offset, "the offset \"\(offsetText)\"; write '3 days', '-24 seconds' or 'now +1 years'")
            }
            if let format = hashLiteral("format"), format != "epoch", format != "unix" {
                do {
                    return .dateFormat(try JavaDateFormat(format))
                } catch {
                    throw fail(at: offset, "\(error)")
                }
            }
        case .truncateDate:
            try require(2, "{{truncateDate (parseDate …) 'first day of month'}}")
            if let name = literal(1), DateTruncation(rawValue: name) == nil {
                throw fail(
                    at: offset, "the truncation \"\(name)\"; use \(DateTruncation.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))")
            }
        case .eq, .neq, .gt, .gte, .lt, .lte: try require(2, "{{#\(helper.rawValue) a b}}…{{/\(helper.rawValue)}}")
        case .if, .unless, .each, .with, .size, .not, .upper, .lower, .capitalize, .trim: try require(1, "{{\(helper.rawValue) value}}")
        case .lookup: try require(2, "{{lookup request.query 'ids[]'}}")
        case .and, .or: try require(1, "{{\(helper.rawValue) a b}}")
        }
        return .none
    }
}
