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

    func position(_ offset: Int) -> String {
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
}
