import Foundation
import URLStubs

/// Why a template does not read: where (the character, from 1, and its line and column) and what.
struct TemplateSyntaxError: Error, Sendable {
    let offset: Int
    let line: Int
    let column: Int
    let reason: String
}

/// Reads a Handlebars template into ``TemplateNode``s, once: text, `{{value}}`, `{{{raw}}}`,
/// `{{!comment}}` and `{{!-- comment --}}`, blocks (`{{#if}}…{{else}}…{{/if}}`, with
/// `{{else if …}}` chains), `\{{` for literal braces, and `~` trimming whitespace beside a tag.
struct TemplateParser {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    private struct OpenBlock {
        let call: HelperCall
        let name: String
        let start: Int
        var body: [TemplateNode] = []
        var inverse: [TemplateNode] = []
        var inElse = false
        /// Opened by `{{else if …}}`: closed by its parent's closing tag.
        let chained: Bool
    }

    mutating func parse() throws -> [TemplateNode] {
        var top: [TemplateNode] = []
        var stack: [OpenBlock] = []
        var text = ""
        var trimNext = false

        func append(_ node: TemplateNode) {
            if stack.isEmpty {
                top.append(node)
            } else if stack[stack.count - 1].inElse {
                stack[stack.count - 1].inverse.append(node)
            } else {
                stack[stack.count - 1].body.append(node)
            }
        }
        func flush(trimTrailing: Bool) {
            var pending = text
            if trimTrailing { while let last = pending.last, last.isWhitespace { pending.removeLast() } }
            if !pending.isEmpty { append(.text(pending)) }
            text = ""
        }
        func closeChained() {
            while let last = stack.last, last.chained {
                let block = stack.removeLast()
                append(.block(block.call, body: block.body, inverse: block.inverse))
            }
        }

        while index < characters.count {
            let character = characters[index]
            if trimNext {
                if character.isWhitespace {
                    index += 1
                    continue
                }
                trimNext = false
            }
            if character == "\\", index + 2 < characters.count, characters[index + 1] == "{", characters[index + 2] == "{" {
                text += "{{"
                index += 3
                continue
            }
            guard character == "{", index + 1 < characters.count, characters[index + 1] == "{" else {
                // The run of plain text up to the next brace or backslash, at once.
                var end = index + 1
                while end < characters.count, characters[end] != "{", characters[end] != "\\" { end += 1 }
                text += String(characters[index..<end])
                index = end
                continue
            }
            let tagStart = index
            let raw = index + 2 < characters.count && characters[index + 2] == "{"
            index += raw ? 3 : 2
            let trimBefore = take("~")
            if !raw, take("!") {
                let long = take("--")
                let end = long ? "--}}" : "}}"
                guard let close = find(end) else { throw fail(at: tagStart, "a comment that is never closed by \"\(end)\"") }
                flush(trimTrailing: trimBefore)
                trimNext = index < close && characters[close - 1] == "~"
                index = close + end.count
                continue
            }
            let closing = raw ? "}}}" : "}}"
            guard let close = find(closing) else { throw fail(at: tagStart, "a tag that is never closed by \"\(closing)\"") }
            var end = close
            let trimAfter = end > index && characters[end - 1] == "~"
            if trimAfter { end -= 1 }
            let content = String(characters[index..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
            index = close + closing.count
            flush(trimTrailing: trimBefore)
            trimNext = trimAfter
            let contentStart = tagStart + (raw ? 3 : 2) + (trimBefore ? 1 : 0)
            if raw {
                append(.output(try expression(content, at: contentStart), escaped: false))
                continue
            }
            if content.hasPrefix("#") {
                let call = try helperCall(String(content.dropFirst()), at: contentStart + 1, block: true)
                stack.append(OpenBlock(call: call, name: call.helper.rawValue, start: tagStart, chained: false))
            } else if content.hasPrefix("/") {
                let name = content.dropFirst().trimmingCharacters(in: .whitespaces)
                closeChained()
                guard let open = stack.popLast() else { throw fail(at: tagStart, "{{/\(name)}} closes no block") }
                guard open.name == name else {
                    throw fail(
                        at: tagStart, "{{/\(name)}} closes the {{#\(open.name)}} opened at \(position(open.start)); close it with {{/\(open.name)}}")
                }
                append(.block(open.call, body: open.body, inverse: open.inverse))
            } else if content == "else" || content == "^" || content.hasPrefix("else ") {
                guard !stack.isEmpty, !stack[stack.count - 1].inElse else { throw fail(at: tagStart, "{{else}} outside a block, or twice in one") }
                stack[stack.count - 1].inElse = true
                let rest = content.hasPrefix("else ") ? content.dropFirst(5).trimmingCharacters(in: .whitespaces) : ""
                if !rest.isEmpty {
                    let call = try helperCall(rest, at: contentStart + 5, block: true)
                    stack.append(OpenBlock(call: call, name: call.helper.rawValue, start: tagStart, chained: true))
                }
            } else {
                append(.output(try expression(content, at: contentStart), escaped: true))
            }
        }
        if trimNext { text = String(text.drop { $0.isWhitespace }) }
        flush(trimTrailing: false)
        closeChained()
        if let open = stack.last { throw fail(at: open.start, "{{#\(open.name)}} is never closed by {{/\(open.name)}}") }
        return top
    }

    private mutating func take(_ literal: String) -> Bool {
        let literalCharacters = Array(literal)
        guard index + literalCharacters.count <= characters.count, Array(characters[index..<(index + literalCharacters.count)]) == literalCharacters
        else { return false }
        index += literalCharacters.count
        return true
    }

    /// The index where `literal` next starts, outside quoted strings.
    private func find(_ literal: String) -> Int? {
        let literalCharacters = Array(literal)
        var position = index
        var quote: Character?
        while position + literalCharacters.count <= characters.count {
            let character = characters[position]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if Array(characters[position..<(position + literalCharacters.count)]) == literalCharacters {
                return position
            }
            position += 1
        }
        return nil
    }

    private func position(_ offset: Int) -> String {
        let (line, column) = lineAndColumn(offset)
        return "line \(line), column \(column)"
    }

    private func lineAndColumn(_ offset: Int) -> (Int, Int) {
        var line = 1
        var column = 1
        for character in characters[..<min(offset, characters.count)] {
            if character == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    func fail(at offset: Int, _ reason: String) -> TemplateSyntaxError {
        let (line, column) = lineAndColumn(offset)
        return TemplateSyntaxError(offset: offset + 1, line: line, column: column, reason: reason)
    }

    // MARK: Expressions

    /// A tag's content: a helper call (`now offset='3 days'`), or a single value.
    private func expression(_ content: String, at offset: Int) throws -> TemplateExpression {
        let tokens = try tokenize(content, at: offset)
        guard let first = tokens.first else { throw fail(at: offset, "an empty tag") }
        if case .word(let name, _) = first, let helper = TemplateHelper(rawValue: name) {
            return .call(try call(helper, tokens: Array(tokens.dropFirst()), at: offset, block: false))
        }
        if tokens.count > 1 || tokens.contains(where: { if case .hash = $0 { return true } else { return false } }) {
            if case .word(let name, let at) = first {
                throw fail(
                    at: at,
                    "the helper \"\(name)\", which URLStubs does not know; known: \(TemplateHelper.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            throw fail(at: offset, "one value, or a helper followed by its parameters")
        }
        return try value(first)
    }

    private func helperCall(_ content: String, at offset: Int, block: Bool) throws -> HelperCall {
        let tokens = try tokenize(content, at: offset)
        guard case .word(let name, let at)? = tokens.first else { throw fail(at: offset, "a block helper's name after \"#\"") }
        guard let helper = TemplateHelper(rawValue: name) else {
            throw fail(
                at: at,
                "the block helper \"\(name)\", which URLStubs does not know; known: \(TemplateHelper.allCases.filter(\.takesBlock).map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard helper.takesBlock else { throw fail(at: at, "\"\(name)\", which is not a block helper: write {{\(name) …}}") }
        return try call(helper, tokens: Array(tokens.dropFirst()), at: at, block: block)
    }

    private func call(_ helper: TemplateHelper, tokens: [Token], at offset: Int, block: Bool) throws -> HelperCall {
        if helper.needsBlock, !block {
            throw fail(at: offset, "\(helper.rawValue) used inline; it needs a block: {{#\(helper.rawValue) …}}…{{/\(helper.rawValue)}}")
        }
        var parameters: [TemplateExpression] = []
        var hash: [(name: String, value: TemplateExpression)] = []
        for token in tokens {
            if case .hash(let name, let valueToken) = token {
                hash.append((name, try value(valueToken)))
            } else {
                parameters.append(try value(token))
            }
        }
        let compiled = try compile(helper, parameters: parameters, hash: hash, at: offset)
        return HelperCall(helper: helper, parameters: parameters, hash: hash, compiled: compiled)
    }

    /// Checks what can be checked at load (arity, literal JSONPaths, expressions, date
    /// patterns, random value types, operators) and compiles the literal argument.
    private func compile(
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

    private indirect enum Token {
        case word(String, Int)
        case string(String)
        case number(TemplateValue)
        case group([Token], Int)
        case hash(String, Token)
    }

    private func tokenize(_ content: String, at offset: Int) throws -> [Token] {
        let text = Array(content)
        var position = 0
        func read(until terminator: Character?) throws -> [Token] {
            var tokens: [Token] = []
            while position < text.count {
                let character = text[position]
                if character.isWhitespace {
                    position += 1
                    continue
                }
                if character == ")" {
                    guard terminator == ")" else { throw fail(at: offset + position, "a \")\" that closes nothing") }
                    position += 1
                    return tokens
                }
                let start = position
                var token: Token
                if character == "(" {
                    position += 1
                    token = .group(try read(until: ")"), offset + start)
                } else if character == "'" || character == "\"" {
                    position += 1
                    var string = ""
                    while position < text.count, text[position] != character {
                        if text[position] == "\\", position + 1 < text.count, text[position + 1] == character { position += 1 }
                        string.append(text[position])
                        position += 1
                    }
                    guard position < text.count else { throw fail(at: offset + start, "a string that is never closed") }
                    position += 1
                    token = .string(string)
                } else {
                    var word = ""
                    var bracket = false
                    while position < text.count {
                        let next = text[position]
                        if next == "[" { bracket = true }
                        if next == "]" { bracket = false }
                        if !bracket, next.isWhitespace || next == "(" || next == ")" || next == "=" { break }
                        word.append(next)
                        position += 1
                    }
                    if position < text.count, text[position] == "=" {
                        position += 1
                        var valueTokens: [Token] = []
                        let saved = position
                        // One token for the value.
                        while position < text.count, text[position].isWhitespace { position += 1 }
                        guard position < text.count else { throw fail(at: offset + saved, "a value after \"\(word)=\"") }
                        valueTokens = try readOne()
                        guard let value = valueTokens.first else { throw fail(at: offset + saved, "a value after \"\(word)=\"") }
                        tokens.append(.hash(word, value))
                        continue
                    }
                    if let integer = Int(word) {
                        token = .number(.integer(integer))
                    } else if word.first?.isNumber == true || word.first == "-", let number = Double(word) {
                        token = .number(.number(number))
                    } else {
                        token = .word(word, offset + start)
                    }
                }
                tokens.append(token)
            }
            if terminator != nil { throw fail(at: offset + position, "a \"(\" that is never closed") }
            return tokens
        }
        func readOne() throws -> [Token] {
            let character = text[position]
            let start = position
            if character == "(" {
                position += 1
                return [.group(try read(until: ")"), offset + start)]
            }
            if character == "'" || character == "\"" {
                position += 1
                var string = ""
                while position < text.count, text[position] != character {
                    string.append(text[position])
                    position += 1
                }
                guard position < text.count else { throw fail(at: offset + start, "a string that is never closed") }
                position += 1
                return [.string(string)]
            }
            var word = ""
            while position < text.count, !text[position].isWhitespace, text[position] != ")" {
                word.append(text[position])
                position += 1
            }
            if let integer = Int(word) { return [.number(.integer(integer))] }
            if let number = Double(word), word.first?.isNumber == true || word.first == "-" { return [.number(.number(number))] }
            return [.word(word, offset + start)]
        }
        return try read(until: nil)
    }

    private func value(_ token: Token) throws -> TemplateExpression {
        switch token {
        case .string(let text): return .literal(.string(text))
        case .number(let number): return .literal(number)
        case .hash(let name, _): throw fail(at: 0, "\(name)= where a value was expected")
        case .group(let tokens, let at):
            guard case .word(let name, let nameAt)? = tokens.first else { throw fail(at: at, "a helper's name after \"(\"") }
            guard let helper = TemplateHelper(rawValue: name) else {
                throw fail(
                    at: nameAt,
                    "the helper \"\(name)\", which URLStubs does not know; known: \(TemplateHelper.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .call(try call(helper, tokens: Array(tokens.dropFirst()), at: nameAt, block: false))
        case .word(let word, let at):
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let helper = TemplateHelper(rawValue: word), !helper.needsBlock {
                    return .call(try call(helper, tokens: [], at: at, block: false))
                }
                return .path(try path(word, at: at))
            }
        }
    }

    private func path(_ word: String, at offset: Int) throws -> TemplatePath {
        var rest = Substring(word)
        var dataName: String?
        if rest.hasPrefix("@") {
            let name = rest.dropFirst().prefix { $0 != "." }
            dataName = String(name)
            rest = rest.dropFirst(name.count + 1)
            guard ["index", "key", "first", "last"].contains(dataName!) else {
                throw fail(at: offset, "@\(dataName!); inside {{#each}} use @index, @key, @first or @last")
            }
        }
        var segments: [TemplatePath.Segment] = []
        var current = ""
        var index = rest.startIndex
        func finish(_ segment: String, bracketed: Bool) {
            if segment.isEmpty, !bracketed { return }
            if let number = Int(segment) {
                segments.append(.index(number))
            } else {
                segments.append(.name(segment))
            }
        }
        while index < rest.endIndex {
            let character = rest[index]
            if character == "[" {
                guard let close = rest[index...].firstIndex(of: "]") else { throw fail(at: offset, "a \"[\" that is never closed in \(word)") }
                finish(current, bracketed: false)
                current = ""
                finish(String(rest[rest.index(after: index)..<close]), bracketed: true)
                index = rest.index(after: close)
                continue
            }
            if character == "." || character == "/" {
                finish(current, bracketed: false)
                current = ""
            } else {
                current.append(character)
            }
            index = rest.index(after: index)
        }
        finish(current, bracketed: false)
        if segments.first == .name("this") { segments.removeFirst() }
        return TemplatePath(dataName: dataName, segments: segments, text: word)
    }
}
