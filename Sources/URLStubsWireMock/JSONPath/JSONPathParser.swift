import Foundation
import URLStubs

/// Reads a JSONPath expression, and the filters inside it, into steps: one pass over its
/// characters.
struct JSONPathParser {
    let text: String
    let characters: [Character]
    var index = 0

    init(_ text: String) {
        self.text = text
        characters = Array(text)
    }

    var current: Character? { index < characters.count ? characters[index] : nil }

    func fail(_ reason: String) -> JSONPathSyntaxError {
        JSONPathSyntaxError(expression: text, position: index + 1, reason: reason)
    }

    mutating func skipSpaces() {
        while let character = current, character == " " { index += 1 }
    }

    mutating func take(_ literal: String) -> Bool {
        let literalCharacters = Array(literal)
        guard index + literalCharacters.count <= characters.count,
            Array(characters[index..<(index + literalCharacters.count)]) == literalCharacters
        else { return false }
        index += literalCharacters.count
        return true
    }

    mutating func expectEnd() throws {
        skipSpaces()
        if index < characters.count { throw fail("unexpected \"\(characters[index])\"") }
    }

    /// `$` or (in a filter) `@`, then steps; stops before a character that cannot continue a
    /// path (an operator or a closing parenthesis in a filter).
    mutating func parsePath(allowRelative: Bool) throws -> ([WireMockJSONPath.Step], Bool) {
        skipSpaces()
        var relative = false
        if current == "$" {
            index += 1
        } else if allowRelative, current == "@" {
            index += 1
            relative = true
        } else {
            throw fail(allowRelative ? "expected \"$\" or \"@\"" : "a JSON path starts with \"$\"")
        }
        var steps: [WireMockJSONPath.Step] = []
        while let character = current {
            if character == "." {
                if take("..") {
                    if current == "[" {
                        steps.append(.descendants(try parseBracket()))
                    } else if take("*") {
                        steps.append(.descendants(.wildcard))
                    } else {
                        let name = readName()
                        guard !name.isEmpty else { throw fail("expected a member name after \"..\"") }
                        steps.append(.descendants(.member(name)))
                    }
                    continue
                }
                index += 1
                if take("*") {
                    steps.append(.wildcard)
                    continue
                }
                let name = readName()
                guard !name.isEmpty else { throw fail("expected a member name or \"*\" after \".\"") }
                if take("()") {
                    let functions = ["length", "size", "min", "max", "avg", "sum", "keys", "first", "last"]
                    guard functions.contains(name) else { throw fail("unknown function \(name)(); known: \(functions.joined(separator: ", "))") }
                    steps.append(.function(name))
                } else {
                    steps.append(.member(name))
                }
            } else if character == "[" {
                steps.append(try parseBracket())
            } else {
                break
            }
        }
        return (steps, relative)
    }

    mutating func readName() -> String {
        var name = ""
        while let character = current, character != ".", character != "[", character != " ", character != "(", character != ")",
            !"=!<>&|,]".contains(character)
        {
            name.append(character)
            index += 1
        }
        return name
    }

    mutating func parseBracket() throws -> WireMockJSONPath.Step {
        index += 1  // [
        skipSpaces()
        defer { index += 1 }
        if take("?(") {
            let filter = try JSONPathFilter.parse(&self)
            skipSpaces()
            guard take(")") else { throw fail("expected \")\" closing the filter") }
            skipSpaces()
            guard current == "]" else { throw fail("expected \"]\" after the filter") }
            return .filter(filter)
        }
        if take("*") {
            skipSpaces()
            guard current == "]" else { throw fail("expected \"]\" after \"*\"") }
            return .wildcard
        }
        if current == "'" || current == "\"" {
            var names: [String] = []
            repeat {
                skipSpaces()
                names.append(try readQuoted())
                skipSpaces()
            } while take(",")
            guard current == "]" else { throw fail("expected \"]\" after the member names") }
            return names.count == 1 ? .member(names[0]) : .members(names)
        }
        // Indices, a union of indices, or a slice.
        var numbers: [Int?] = []
        var colons = 0
        var commas = 0
        while true {
            skipSpaces()
            numbers.append(readInteger())
            skipSpaces()
            if take(":") {
                colons += 1
            } else if take(",") {
                commas += 1
            } else {
                break
            }
        }
        guard current == "]" else { throw fail("expected an index, a slice, \"*\", a quoted name or a filter in brackets") }
        if colons > 0 {
            guard commas == 0, colons <= 2 else { throw fail("a slice is [start:end] or [start:end:step]") }
            return .slice(numbers[0], numbers.count > 1 ? numbers[1] : nil, numbers.count > 2 ? numbers[2] : nil)
        }
        let indices = numbers.compactMap { $0 }
        guard indices.count == numbers.count, !indices.isEmpty else { throw fail("expected an index") }
        return indices.count == 1 ? .index(indices[0]) : .indices(indices)
    }

    mutating func readInteger() -> Int? {
        var digits = ""
        if current == "-" {
            digits = "-"
            index += 1
        }
        while let character = current, character.isASCII, character.isNumber {
            digits.append(character)
            index += 1
        }
        return Int(digits)
    }

    mutating func readQuoted() throws -> String {
        guard let quote = current, quote == "'" || quote == "\"" else { throw fail("expected a quoted string") }
        index += 1
        var value = ""
        while let character = current, character != quote {
            if character == "\\", index + 1 < characters.count {
                index += 1
                value.append(characters[index])
            } else {
                value.append(character)
            }
            index += 1
        }
        guard current == quote else { throw fail("a string that is never closed") }
        index += 1
        return value
    }
}
