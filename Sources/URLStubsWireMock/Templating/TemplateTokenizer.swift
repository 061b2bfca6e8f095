import Foundation
import URLStubs

/// One token of a tag's content: a word (a path or a helper's name, with its offset), a quoted
/// string, a number, a parenthesised sub-expression, or a `name=value` hash argument.
indirect enum TemplateToken {
    case word(String, Int)
    case string(String)
    case number(TemplateValue)
    case group([TemplateToken], Int)
    case hash(String, TemplateToken)
}

extension TemplateParser {
    /// The tokens of a tag's content, which starts at `offset` in the template (for errors).
    func tokenize(_ content: String, at offset: Int) throws -> [TemplateToken] {
        let text = Array(content)
        var position = 0
        func read(until terminator: Character?) throws -> [TemplateToken] {
            var tokens: [TemplateToken] = []
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
                var token: TemplateToken
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
                        var valueTokens: [TemplateToken] = []
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
        func readOne() throws -> [TemplateToken] {
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
}
