import Foundation

/// Where an invalid regular expression goes wrong, as a sentence with a 1-based column.
///
/// `NSRegularExpression` reports no position (on Linux its message is only "The value is
/// invalid"), so the position is found by compiling prefixes: a prefix is closed with the
/// groups and brackets still open at that point (`(ab` is tried as `(ab)`), and the error is at
/// the first token after the longest prefix that still compiles. Tokens are escapes, groups'
/// openings (`(?<name>`), quantifiers (`{2,3}`) and single characters, so no prefix ends
/// inside one. This runs only for a pattern that already failed, once, when the stub is added.
enum RegexDiagnosis {
    /// `unbalanced ")" at column 4`, `"(" at column 1 is never closed`,
    /// `the pattern is invalid from column 4 ("*")`.
    static func explain(_ pattern: String) -> String {
        let tokens = tokenize(pattern)
        var lastValid = -1  // index of the last token whose prefix compiles
        var firstFailureAfterValid: Int?
        for index in tokens.indices {
            let prefix = String(tokens[...index].map(\.text).joined())
            if compiles(prefix + closing(after: tokens[...index])) {
                lastValid = index
                firstFailureAfterValid = nil
            } else if firstFailureAfterValid == nil {
                firstFailureAfterValid = index
            }
        }
        if let index = firstFailureAfterValid, index > lastValid {
            let token = tokens[index]
            if token.text == ")", openGroups(in: tokens[..<index]).isEmpty {
                return "unbalanced \")\" at column \(token.column)"
            }
            if token.text == "\\" {
                return "trailing \"\\\" at column \(token.column) escapes nothing"
            }
            if token.text.hasPrefix("{"), !token.text.hasSuffix("}") {
                return "\"{\" at column \(token.column) is never closed"
            }
            if token.isQuantifier, index == 0 || tokens[index - 1].text == "|" || tokens[index - 1].opensGroup {
                return "\"\(token.text)\" at column \(token.column) has nothing to repeat"
            }
            return "the pattern is invalid from column \(token.column) (\"\(token.text)\")"
        }
        // Every prefix compiles once closed: something is left open at the end.
        if let open = openClasses(in: tokens[...]).last {
            return "\"[\" at column \(open.column) is never closed"
        }
        if let open = openGroups(in: tokens[...]).last {
            return "\"(\" at column \(open.column) is never closed"
        }
        return "the pattern is invalid at its end (column \(pattern.count + 1))"
    }

    struct Token {
        let text: String
        /// 1-based, in characters.
        let column: Int
        var isQuantifier: Bool { ["*", "+", "?"].contains(text) || (text.hasPrefix("{") && text.count > 1) }
        /// `(`, `(?:`, `(?<name>`; not `(?i)` or `(?#…)`, which close themselves.
        var opensGroup: Bool { text.hasPrefix("(") && !(text.count > 1 && text.hasSuffix(")")) }
    }

    private static func compiles(_ pattern: String) -> Bool {
        (try? NSRegularExpression(pattern: pattern)) != nil
    }

    /// What closes the groups and character classes still open after `tokens`.
    private static func closing(after tokens: ArraySlice<Token>) -> String {
        String(repeating: "]", count: openClasses(in: tokens).count) + String(repeating: ")", count: openGroups(in: tokens).count)
    }

    private static func openGroups(in tokens: ArraySlice<Token>) -> [Token] {
        var open: [Token] = []
        var classDepth = 0
        for token in tokens {
            switch token.text {
            case "[", "[^": classDepth += 1
            case "]" where classDepth > 0: classDepth -= 1
            case ")" where classDepth == 0: if !open.isEmpty { open.removeLast() }
            default: if classDepth == 0, token.opensGroup { open.append(token) }
            }
        }
        return open
    }

    private static func openClasses(in tokens: ArraySlice<Token>) -> [Token] {
        var open: [Token] = []
        for token in tokens {
            switch token.text {
            case "[", "[^": open.append(token)
            case "]": if !open.isEmpty { open.removeLast() }
            default: break
            }
        }
        return open
    }

    /// Splits `pattern` into tokens no prefix may end inside.
    static func tokenize(_ pattern: String) -> [Token] {
        let characters = Array(pattern)
        var tokens: [Token] = []
        var index = 0
        var classDepth = 0
        var classJustOpened = false
        func take(_ count: Int) {
            let end = min(characters.count, index + count)
            tokens.append(Token(text: String(characters[index..<end]), column: index + 1))
            index = end
        }
        func length(upTo terminator: Character, from start: Int) -> Int {
            var end = start
            while end < characters.count, characters[end] != terminator { end += 1 }
            return end < characters.count ? end - index + 1 : characters.count - index
        }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let wasJustOpened = classJustOpened
            classJustOpened = false
            if character == "\\" {
                guard let next else { take(1); continue }
                if "pPNxuk".contains(next), index + 2 < characters.count, characters[index + 2] == "{" || characters[index + 2] == "<" {
                    take(length(upTo: characters[index + 2] == "{" ? "}" : ">", from: index + 2))
                } else if next == "Q" {
                    // \Q…\E quotes everything up to \E.
                    var end = index + 2
                    while end + 1 < characters.count, !(characters[end] == "\\" && characters[end + 1] == "E") { end += 1 }
                    take(end + 1 < characters.count ? end + 2 - index : characters.count - index)
                } else {
                    take(2)
                }
                continue
            }
            if classDepth > 0 {
                if character == "[" {
                    // A nested set, or a POSIX class such as [:alpha:].
                    if next == ":" {
                        take(length(upTo: "]", from: index + 2))
                    } else {
                        classDepth += 1
                        classJustOpened = true
                        take(next == "^" ? 2 : 1)
                    }
                } else if character == "]", !wasJustOpened {
                    classDepth -= 1
                    take(1)
                } else if character == "-", let next, next != "]" {
                    // A range is only whole with its right-hand side.
                    take(2)
                } else if character == "&", next == "&" {
                    take(2)
                } else {
                    take(1)
                }
                continue
            }
            switch character {
            case "[":
                classDepth = 1
                classJustOpened = true
                take(next == "^" ? 2 : 1)
            case "(" where next == "?":
                // A group's opening: (?:  (?=  (?!  (?>  (?<=  (?<!  (?<name>  (?i)  (?i-m:  (?#…)
                if index + 2 < characters.count, characters[index + 2] == "#" {
                    take(length(upTo: ")", from: index + 2))
                } else if index + 2 < characters.count, characters[index + 2] == "<",
                    index + 3 < characters.count, characters[index + 3] != "=", characters[index + 3] != "!"
                {
                    take(length(upTo: ">", from: index + 3))
                } else {
                    var end = index + 2
                    while end < characters.count, !":)=!>".contains(characters[end]) { end += 1 }
                    take(min(characters.count, end + 1) - index)
                }
            case "{":
                take(length(upTo: "}", from: index + 1))
            case "*", "+", "?":
                // A lazy or possessive quantifier is one token with its suffix.
                take(next == "?" || next == "+" ? 2 : 1)
            default:
                take(1)
            }
        }
        return tokens
    }
}
