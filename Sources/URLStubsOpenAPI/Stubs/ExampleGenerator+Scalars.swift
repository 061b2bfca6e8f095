import Foundation
import URLStubs

/// The generator's scalars: strings that honour `format`, `pattern` and length bounds, and
/// numbers within their bounds.
extension ExampleGenerator {
    /// A string of `format` unlike `text` (which is the format's first example).
    static func varied(_ text: String, format: String?, _ position: Int) -> String {
        switch format {
        case "email": return "ada\(position)@example.com"
        case "uri": return "https://example.com/\(position)"
        case "uuid": return String(text.dropLast(8)) + String(format: "%08x", position)
        case "date": return String(format: "2024-05-%02d", position % 28 + 1)
        case "date-time": return String(format: "2024-05-01T12:%02d:%02dZ", position / 60 % 60, position % 60)
        default: return text + String(position)
        }
    }

    mutating func string(_ node: SchemaNode) throws -> String {
        let minimum = node.minLength ?? 0
        guard minimum <= Self.stringLimit else {
            throw Failure(
                schemaPath: node.path + "/minLength",
                message: "minLength \(minimum) is more than the \(Self.stringLimit) characters a generated string holds")
        }
        let text: String
        if let pattern = node.pattern {
            text = try patternString(pattern, node)
        } else {
            var made = Self.formatExample(node.format) ?? "string"
            let length = made.unicodeScalars.count
            if length < minimum { made += String(repeating: "x", count: minimum - length) }
            if let maximum = node.maxLength, made.unicodeScalars.count > maximum { made = String(made.unicodeScalars.prefix(maximum)) }
            text = made
        }
        try spend(text.utf8.count, node)
        return text
    }

    static func formatExample(_ format: String?) -> String? {
        switch format {
        case "date-time": return "2024-05-01T12:00:00Z"
        case "date": return "2024-05-01"
        case "uuid": return "3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b"
        case "email": return "ada@example.com"
        case "uri": return "https://example.com/"
        default: return nil
        }
    }

    /// The shortest string the pattern's repetitions make that is long enough for `minLength`
    /// and short enough for `maxLength`, checked against the pattern itself.
    func patternString(_ pattern: RegexBox, _ node: SchemaNode) throws -> String {
        let path = node.path + "/pattern"
        let reader: PatternString
        do {
            reader = try PatternString(pattern.source)
        } catch let unsupported as PatternString.Unsupported {
            throw Failure(
                schemaPath: path,
                message: "no string can be made for the pattern /\(pattern.source)/: \(unsupported.what) is outside the syntax the generator reads")
        }
        let minimum = node.minLength ?? 0
        func made(_ stretch: Int) throws -> String {
            do {
                return try reader.make(stretch: stretch)
            } catch let unsupported as PatternString.Unsupported {
                throw Failure(schemaPath: path, message: "no string can be made for the pattern /\(pattern.source)/: \(unsupported.what)")
            }
        }
        // Lengths grow with the stretch: double it until long enough, then halve back.
        var low = 0
        var text = try made(0)
        if text.unicodeScalars.count < minimum {
            var high = 1
            while true {
                let longer = try made(high)
                if longer.unicodeScalars.count >= minimum {
                    text = longer
                    break
                }
                guard longer.unicodeScalars.count > text.unicodeScalars.count || high < 4, high < Self.stringLimit else {
                    throw Failure(schemaPath: path, message: "the pattern /\(pattern.source)/ makes no string of minLength \(minimum)")
                }
                low = high
                high *= 2
            }
            while high - low > 1 {
                let middle = (low + high) / 2
                let candidate = try made(middle)
                if candidate.unicodeScalars.count >= minimum {
                    high = middle
                    text = candidate
                } else {
                    low = middle
                }
            }
        }
        guard text.unicodeScalars.count <= Self.stringLimit else {
            throw Failure(schemaPath: path, message: "the pattern /\(pattern.source)/ makes no string within \(Self.stringLimit) characters")
        }
        if let maximum = node.maxLength, text.unicodeScalars.count > maximum {
            throw Failure(
                schemaPath: path,
                message: "the shortest string the pattern /\(pattern.source)/ makes for minLength \(minimum) is longer than maxLength \(maximum)")
        }
        guard pattern.matches(text, within: BudgetedRegex.defaultBudget).answer == .matched else {
            throw Failure(
                schemaPath: path, message: "the string made for the pattern /\(pattern.source)/, \(JSONValue.string(text).brief), does not match it")
        }
        return text
    }

    /// A number within the bounds (finite: a bound JSON cannot write is left out).
    static func number(_ node: SchemaNode, integral: Bool) -> Double {
        var value: Double = 1
        if let minimum = node.minimum { value = max(value, minimum) }
        if let minimum = node.exclusiveMinimum, value <= minimum { value = integral ? minimum.rounded(.down) + 1 : minimum + 0.5 }
        if let maximum = node.maximum { value = min(value, maximum) }
        if let maximum = node.exclusiveMaximum, value >= maximum { value = integral ? maximum.rounded(.up) - 1 : maximum - 0.5 }
        if let multiple = node.multipleOf { value = (value / multiple).rounded(.up) * multiple }
        if integral { value = value.rounded(.up) }
        return value.isFinite ? value : 1
    }
}
