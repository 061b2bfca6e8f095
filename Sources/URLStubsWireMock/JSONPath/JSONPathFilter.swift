import Foundation
import URLStubs

/// The predicate of a filter step, `[?(…)]`: comparisons of paths relative to the current node
/// (`@.price`), paths from the document (`$.limit`) and literals, joined by `&&`, `||`, `!`
/// and parentheses, as Jayway JsonPath evaluates them.
indirect enum JSONPathFilter: Sendable, Hashable {
    enum Operand: Sendable, Hashable {
        case path(WireMockJSONPath)
        case literal(JSONValue)
        case regex(String, caseInsensitive: Bool)
    }

    case exists(Operand)
    case compare(Operand, String, Operand)
    case and(JSONPathFilter, JSONPathFilter)
    case or(JSONPathFilter, JSONPathFilter)
    case not(JSONPathFilter)

    static let operators = [
        "==", "!=", "<=", ">=", "<", ">", "=~", " nin ", " in ", " subsetof ", " anyof ", " noneof ", " size ", " empty ", " contains ",
    ]

    static func parse(_ parser: inout JSONPathParser) throws -> JSONPathFilter {
        var left = try parseAnd(&parser)
        while true {
            parser.skipSpaces()
            guard parser.take("||") else { return left }
            left = .or(left, try parseAnd(&parser))
        }
    }

    private static func parseAnd(_ parser: inout JSONPathParser) throws -> JSONPathFilter {
        var left = try parseUnary(&parser)
        while true {
            parser.skipSpaces()
            guard parser.take("&&") else { return left }
            left = .and(left, try parseUnary(&parser))
        }
    }

    private static func parseUnary(_ parser: inout JSONPathParser) throws -> JSONPathFilter {
        parser.skipSpaces()
        if parser.current == "!", !(parser.index + 1 < parser.characters.count && parser.characters[parser.index + 1] == "=") {
            parser.index += 1
            return .not(try parseUnary(&parser))
        }
        if parser.current == "(" {
            parser.index += 1
            let inner = try parse(&parser)
            parser.skipSpaces()
            guard parser.take(")") else { throw parser.fail("expected \")\"") }
            return inner
        }
        let left = try parseOperand(&parser)
        let start = parser.index
        parser.skipSpaces()
        for op in operators {
            let trimmed = op.trimmingCharacters(in: .whitespaces)
            let spaced = op.hasPrefix(" ")
            if spaced {
                parser.index = start
                guard parser.current == " " else { continue }
                parser.skipSpaces()
            }
            if parser.take(trimmed) {
                if spaced, let next = parser.current, next != " " { continue }
                return .compare(left, trimmed, try parseOperand(&parser))
            }
        }
        parser.index = start
        return .exists(left)
    }

    private static func parseOperand(_ parser: inout JSONPathParser) throws -> Operand {
        parser.skipSpaces()
        guard let character = parser.current else { throw parser.fail("expected a value") }
        switch character {
        case "@", "$":
            let start = parser.index
            let (steps, relative) = try parser.parsePath(allowRelative: true)
            let text = String(parser.characters[start..<parser.index])
            return .path(WireMockJSONPath(description: text, steps: steps, relative: relative))
        case "'", "\"":
            return .literal(.string(try parser.readQuoted()))
        case "/":
            parser.index += 1
            var pattern = ""
            while let next = parser.current, next != "/" {
                if next == "\\", parser.index + 1 < parser.characters.count, parser.characters[parser.index + 1] == "/" {
                    parser.index += 1
                }
                pattern.append(parser.characters[parser.index])
                parser.index += 1
            }
            guard parser.take("/") else { throw parser.fail("a regular expression that is never closed by \"/\"") }
            let caseInsensitive = parser.take("i")
            guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                throw parser.fail("the regular expression /\(pattern)/ does not compile")
            }
            return .regex(pattern, caseInsensitive: caseInsensitive)
        case "[", "{":
            // A JSON literal: read to the matching bracket.
            let start = parser.index
            var depth = 0
            var quote: Character?
            while let next = parser.current {
                parser.index += 1
                if let open = quote {
                    if next == open { quote = nil }
                    continue
                }
                if next == "'" || next == "\"" { quote = next }
                if next == "[" || next == "{" { depth += 1 }
                if next == "]" || next == "}" {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
            let literal = String(parser.characters[start..<parser.index]).replacingOccurrences(of: "'", with: "\"")
            guard let value = try? JSONValue.parsing(Data(literal.utf8)) else { throw parser.fail("expected a JSON array or object") }
            return .literal(value)
        default:
            var word = ""
            while let next = parser.current, next.isLetter || next.isNumber || "-+.eE".contains(next) {
                word.append(next)
                parser.index += 1
            }
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let integer = Int(word) { return .literal(.integer(integer)) }
                if let number = Double(word) { return .literal(.number(number)) }
                throw parser.fail("expected a path, a quoted string, a number, true, false, null or /regex/")
            }
        }
    }

    /// Whether the filter holds for `node`.
    func holds(for node: JSONValue, root: JSONValue) -> Bool {
        switch self {
        case .and(let left, let right): return left.holds(for: node, root: root) && right.holds(for: node, root: root)
        case .or(let left, let right): return left.holds(for: node, root: root) || right.holds(for: node, root: root)
        case .not(let inner): return !inner.holds(for: node, root: root)
        case .exists(let operand):
            guard case .path(let path) = operand else { return true }
            switch path.evaluate(path.relative ? node : root, root: root) {
            case .single(let value): return value != nil
            case .list(let values): return !values.isEmpty
            }
        case .compare(let left, let op, let right):
            guard let lhs = Self.value(left, node: node, root: root) else { return op == "!=" || op == "nin" || op == "noneof" }
            if case .regex(let pattern, let caseInsensitive) = right {
                guard case .string(let text) = lhs else { return false }
                let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
                guard let regex = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options) else { return false }
                return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
            guard let rhs = Self.value(right, node: node, root: root) else { return op == "!=" }
            return Self.compare(lhs, op, rhs)
        }
    }

    private static func value(_ operand: Operand, node: JSONValue, root: JSONValue) -> JSONValue? {
        switch operand {
        case .literal(let value): return value
        case .regex(let pattern, _): return .string(pattern)
        case .path(let path): return path.evaluate(path.relative ? node : root, root: root).value
        }
    }

    private static func compare(_ lhs: JSONValue, _ op: String, _ rhs: JSONValue) -> Bool {
        switch op {
        case "==": return lhs == rhs
        case "!=": return lhs != rhs
        case "<", "<=", ">", ">=":
            let order: ComparisonResult
            if let left = lhs.numericValue, let right = rhs.numericValue {
                order = left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
            } else if case .string(let left) = lhs, case .string(let right) = rhs {
                order = left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
            } else {
                return false
            }
            switch op {
            case "<": return order == .orderedAscending
            case "<=": return order != .orderedDescending
            case ">": return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case "in", "nin":
            guard case .array(let items) = rhs else { return false }
            return items.contains(lhs) == (op == "in")
        case "subsetof", "anyof", "noneof":
            guard case .array(let right) = rhs else { return false }
            let left: [JSONValue]
            if case .array(let items) = lhs { left = items } else { left = [lhs] }
            switch op {
            case "subsetof": return left.allSatisfy(right.contains)
            case "anyof": return left.contains(where: right.contains)
            default: return !left.contains(where: right.contains)
            }
        case "size":
            guard let expected = rhs.numericValue else { return false }
            switch lhs {
            case .array(let items): return Double(items.count) == expected
            case .string(let text): return Double(text.count) == expected
            default: return false
            }
        case "empty":
            guard case .bool(let expected) = rhs else { return false }
            switch lhs {
            case .array(let items): return items.isEmpty == expected
            case .string(let text): return text.isEmpty == expected
            case .object(let members): return members.isEmpty == expected
            default: return false
            }
        case "contains":
            switch lhs {
            case .array(let items): return items.contains(rhs)
            case .string(let text):
                if case .string(let part) = rhs { return text.contains(part) }
                return false
            default: return false
            }
        default:
            return false
        }
    }
}
