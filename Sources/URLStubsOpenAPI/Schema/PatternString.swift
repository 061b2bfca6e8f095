import Foundation

/// Builds a string that a schema's `pattern` matches, for generated examples.
///
/// It reads the part of the regular expression syntax API documents use: anchors (`^`, `$`,
/// `\A`, `\z`, `\Z`, `\b`), literal characters and escapes, `.`, the classes `\d \w \s` (and
/// their negations), bracket classes with ranges and negation (`[A-Z0-9_-]`, `[^,]`), the
/// quantifiers `* + ? {n} {n,} {n,m}` (lazy or possessive too), groups (`(…)`, `(?:…)`,
/// `(?<name>…)`), inline flags such as `(?i)`, and alternation. Each quantifier repeats its
/// minimum plus ``make(stretch:)``'s `stretch` (within its maximum), each alternation takes its
/// first branch, each class its first character of `a A 0 _ -` and so on that it admits.
/// Anything else (lookaround, back-references, `\p{…}`) is ``Unsupported``: the caller asks for
/// an example instead.
struct PatternString {
    struct Unsupported: Error {
        /// What could not be read, for the error: `lookahead "(?=" at column 3`.
        let what: String
    }

    indirect enum Node {
        case literal(Character)
        case set(CharacterChoice)
        case sequence([Node])
        case alternation([Node])
        case repeated(Node, min: Int, max: Int?)
        /// An anchor or a word boundary: it matches no character.
        case empty
    }

    /// The characters a class admits, as a test.
    struct CharacterChoice {
        let admits: (Character) -> Bool
        let description: String

        /// The first of a fixed list of likely characters the class admits.
        func pick() -> Character? {
            for candidate in Self.candidates where admits(candidate) { return candidate }
            return nil
        }

        static let candidates: [Character] = Array(
            "aA0_-x.bcdefghijklmnopqrstuvwyzBCDEFGHIJKLMNOPQRSTUVWXYZ123456789 @:/+=,;!#$%&*?'\"()[]{}<>|^~`\\")
    }

    let root: Node

    /// The largest count a quantifier may ask for: past it the string would not be an example.
    static let maximumRepeat = 10_000

    init(_ pattern: String) throws {
        var parser = Parser(characters: Array(pattern))
        root = try parser.alternation()
        if parser.index < parser.characters.count {
            throw Unsupported(what: "unbalanced \")\" at column \(parser.index + 1)")
        }
    }

    /// The string: each quantifier repeats its minimum plus `stretch`, within its maximum.
    func make(stretch: Int) throws -> String {
        var output = ""
        try Self.append(root, stretch: stretch, to: &output)
        return output
    }

    private static func append(_ node: Node, stretch: Int, to output: inout String) throws {
        switch node {
        case .literal(let character): output.append(character)
        case .set(let choice):
            guard let character = choice.pick() else { throw Unsupported(what: "the class \(choice.description), which admits no common character") }
            output.append(character)
        case .sequence(let nodes): for node in nodes { try append(node, stretch: stretch, to: &output) }
        case .alternation(let branches): try append(branches[0], stretch: stretch, to: &output)
        case .repeated(let inner, let minimum, let maximum):
            let count = min(maximum ?? Int.max, minimum + stretch)
            for _ in 0..<count { try append(inner, stretch: stretch, to: &output) }
        case .empty: break
        }
    }

    /// A recursive-descent reader of the subset. Nesting is bounded by the pattern's length,
    /// which a schema keeps short; deeper than ``maximumNesting`` groups is refused.
    private struct Parser {
        static let maximumNesting = 32
        let characters: [Character]
        var index = 0
        var nesting = 0

        var current: Character? { index < characters.count ? characters[index] : nil }

        mutating func alternation() throws -> Node {
            var branches = [try sequence()]
            while current == "|" {
                index += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func sequence() throws -> Node {
            var nodes: [Node] = []
            while let character = current, character != "|", character != ")" {
                let atom = try self.atom()
                nodes.append(try quantified(atom))
            }
            return .sequence(nodes)
        }

        mutating func quantified(_ atom: Node) throws -> Node {
            var node = atom
            while let character = current {
                let bounds: (Int, Int?)
                switch character {
                case "*": bounds = (0, nil)
                case "+": bounds = (1, nil)
                case "?": bounds = (0, 1)
                case "{":
                    guard let read = try braces() else { return node }
                    bounds = read
                    index -= 1
                default: return node
                }
                index += 1
                // Lazy (`*?`) and possessive (`*+`) forms admit the same strings.
                if current == "?" || current == "+" { index += 1 }
                guard bounds.0 <= PatternString.maximumRepeat else {
                    throw Unsupported(what: "a repetition of at least \(bounds.0)")
                }
                node = .repeated(node, min: bounds.0, max: bounds.1)
            }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}` ending just past `}`; `nil` (nothing read) when the brace is
        /// a literal.
        mutating func braces() throws -> (Int, Int?)? {
            let start = index
            index += 1
            func number() -> Int? {
                var digits = ""
                while let character = current, character.isASCII, character.isNumber {
                    digits.append(character)
                    index += 1
                }
                return digits.isEmpty ? nil : Int(digits.prefix(9))
            }
            guard let low = number() else {
                index = start
                return nil
            }
            var high: Int? = low
            if current == "," {
                index += 1
                high = number()
            }
            guard current == "}" else {
                index = start
                return nil
            }
            index += 1
            return (low, high)
        }

        mutating func atom() throws -> Node {
            let column = index + 1
            let character = characters[index]
            index += 1
            switch character {
            case "^", "$": return .empty
            case ".": return .set(CharacterChoice(admits: { $0 != "\n" }, description: "."))
            case "[": return .set(try bracket(column: column))
            case "\\": return try escape(column: column, inClass: false)
            case "(": return try group(column: column)
            case "*", "+", "?": throw Unsupported(what: "\"\(character)\" at column \(column), which repeats nothing")
            default: return .literal(character)
            }
        }

        mutating func group(column: Int) throws -> Node {
            nesting += 1
            defer { nesting -= 1 }
            guard nesting <= Self.maximumNesting else { throw Unsupported(what: "groups nested deeper than \(Self.maximumNesting)") }
            if current == "?" {
                index += 1
                switch current {
                case ":": index += 1
                case "<" where index + 1 < characters.count && characters[index + 1] != "=" && characters[index + 1] != "!":
                    while let character = current, character != ">" { index += 1 }
                    index += 1
                case "P" where index + 1 < characters.count && characters[index + 1] == "<":
                    while let character = current, character != ">" { index += 1 }
                    index += 1
                case let flag? where flag.isLetter || flag == "-":
                    // Inline flags: `(?i)` or `(?i:…)`. The string made matches with or without them.
                    while let character = current, character.isLetter || character == "-" { index += 1 }
                    if current == ")" {
                        index += 1
                        return .empty
                    }
                    guard current == ":" else { throw Unsupported(what: "the group at column \(column)") }
                    index += 1
                default:
                    throw Unsupported(what: "the lookaround or special group \"(?\(current.map(String.init) ?? "")\" at column \(column)")
                }
            }
            let inner = try alternation()
            guard current == ")" else { throw Unsupported(what: "\"(\" at column \(column), which is never closed") }
            index += 1
            return inner
        }

        /// The class a backslash escape stands for (`\d`), or its literal character.
        mutating func escape(column: Int, inClass: Bool) throws -> Node {
            guard let character = current else { throw Unsupported(what: "a trailing \"\\\" at column \(column)") }
            index += 1
            func set(_ description: String, _ admits: @escaping (Character) -> Bool) -> Node {
                .set(CharacterChoice(admits: admits, description: description))
            }
            switch character {
            case "d": return set("\\d") { $0.isASCII && $0.isNumber }
            case "D": return set("\\D") { !($0.isASCII && $0.isNumber) }
            case "w": return set("\\w") { $0.isLetter || $0.isNumber || $0 == "_" }
            case "W": return set("\\W") { !($0.isLetter || $0.isNumber || $0 == "_") }
            case "s": return set("\\s") { $0.isWhitespace }
            case "S": return set("\\S") { !$0.isWhitespace }
            case "A", "z", "Z", "b", "B", "G": return inClass ? .literal(character) : .empty
            case "n": return .literal("\n")
            case "t": return .literal("\t")
            case "r": return .literal("\r")
            case "f": return .literal("\u{0C}")
            case "v": return .literal("\u{0B}")
            case "e": return .literal("\u{1B}")
            case "x", "u":
                return .literal(try hexadecimal(column: column))
            default:
                guard !character.isLetter, !character.isNumber else {
                    throw Unsupported(what: "the escape \"\\\(character)\" at column \(column)")
                }
                return .literal(character)
            }
        }

        /// `\xHH`, `\x{H…}`, `\uHHHH` as the character they name.
        mutating func hexadecimal(column: Int) throws -> Character {
            var digits = ""
            if current == "{" {
                index += 1
                while let character = current, character != "}" {
                    digits.append(character)
                    index += 1
                }
                index += 1
            } else {
                let width = characters[index - 1] == "x" ? 2 : 4
                for _ in 0..<width {
                    guard let character = current else { break }
                    digits.append(character)
                    index += 1
                }
            }
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw Unsupported(what: "the escape at column \(column)")
            }
            return Character(scalar)
        }

        /// A bracket class from just past `[` to just past its `]`.
        mutating func bracket(column: Int) throws -> CharacterChoice {
            var negated = false
            if current == "^" {
                negated = true
                index += 1
            }
            var ranges: [(Character, Character)] = []
            var classes: [(Character) -> Bool] = []
            var isFirst = true
            while true {
                guard let character = current else { throw Unsupported(what: "\"[\" at column \(column), which is never closed") }
                if character == "]", !isFirst {
                    index += 1
                    break
                }
                isFirst = false
                index += 1
                var low: Character
                switch character {
                case "[": throw Unsupported(what: "a nested class at column \(index)")
                case "\\":
                    switch try escape(column: index, inClass: true) {
                    case .literal(let literal): low = literal
                    case .set(let choice):
                        classes.append(choice.admits)
                        continue
                    default: continue
                    }
                default: low = character
                }
                if current == "-", index + 1 < characters.count, characters[index + 1] != "]" {
                    index += 1
                    var high = characters[index]
                    index += 1
                    if high == "\\" {
                        guard case .literal(let literal) = try escape(column: index, inClass: true) else {
                            throw Unsupported(what: "a range ending in a class at column \(index)")
                        }
                        high = literal
                    }
                    ranges.append((low, high))
                } else {
                    ranges.append((low, low))
                }
            }
            let text = String(characters[(column - 1)..<index])
            let admitsListed: (Character) -> Bool = { candidate in
                ranges.contains { candidate >= $0.0 && candidate <= $0.1 } || classes.contains { $0(candidate) }
            }
            return CharacterChoice(admits: negated ? { !admitsListed($0) && $0 != "\n" } : admitsListed, description: text)
        }
    }
}
