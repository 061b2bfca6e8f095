import Foundation
import URLStubs

/// Flow collections: `[a, b]` and `{key: value}`, across lines, nested, with comments.
extension YAMLReader {
    mutating func readFlowNode() throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        try skipFlowSpace()
        guard let byte = current else { throw error("expected a value inside a flow collection, found the end of the text") }
        switch byte {
        case UInt8(ascii: "["): return try readFlowSequence()
        case UInt8(ascii: "{"): return try readFlowMapping()
        case UInt8(ascii: "\""): return .string(try readDoubleQuoted())
        case UInt8(ascii: "'"): return .string(try readSingleQuoted())
        case UInt8(ascii: "*"):
            return try readFlowAlias()
        case UInt8(ascii: "&"):
            let name = readFlowPropertyName()
            let value = try readFlowNode()
            anchors[name] = value
            return value
        case UInt8(ascii: "!"):
            try readFlowTag()
            return try readFlowNode()
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            throw error("expected a value, found \(Self.describe(byte))")
        default:
            return Self.resolvePlain(try readFlowPlain())
        }
    }

    private mutating func readFlowAlias() throws -> JSONValue {
        let aliasLine = line, aliasColumn = column + 1
        let name = readFlowPropertyName()
        guard let value = anchors[name] else {
            throw YAMLError(line: aliasLine, column: aliasColumn, message: "the alias \"*\(Self.clip(name))\" names no anchor defined before it")
        }
        return value
    }

    private mutating func readFlowPropertyName() -> String {
        advance()
        let start = index
        while let byte = current, !Self.isWhitespace(byte), !Self.isFlowIndicator(byte) { advance() }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func readFlowTag() throws {
        let tagLine = line, tagColumn = column + 1
        let name = "!" + readFlowPropertyName()
        guard ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!"].contains(name) else {
            throw YAMLError(line: tagLine, column: tagColumn, message: "the tag \"\(Self.clip(name))\" is not supported (only YAML's core tags are)")
        }
    }

    private mutating func readFlowSequence() throws -> JSONValue {
        let openLine = line, openColumn = column + 1
        advance()
        var items: [JSONValue] = []
        while true {
            try skipFlowSpace()
            guard let byte = current else {
                throw YAMLError(line: openLine, column: openColumn, message: "the \"[\" here is never closed")
            }
            if byte == UInt8(ascii: "]") {
                advance()
                return .array(items)
            }
            items.append(try readFlowNode())
            try skipFlowSpace()
            guard current != nil else { throw YAMLError(line: openLine, column: openColumn, message: "the \"[\" here is never closed") }
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"): continue
            case UInt8(ascii: ":"):
                throw error("a \"key: value\" pair inside a flow sequence is not supported; write it as {key: value}")
            default:
                throw error("expected \",\" or \"]\" in the flow sequence opened at line \(openLine), found \(Self.describe(current))")
            }
        }
    }

    private mutating func readFlowMapping() throws -> JSONValue {
        let openLine = line, openColumn = column + 1
        advance()
        var object: [String: JSONValue] = [:]
        while true {
            try skipFlowSpace()
            guard let byte = current else {
                throw YAMLError(line: openLine, column: openColumn, message: "the \"{\" here is never closed")
            }
            if byte == UInt8(ascii: "}") {
                advance()
                return .object(object)
            }
            let keyLine = line, keyColumn = column + 1
            let key: String
            switch byte {
            case UInt8(ascii: "\""): key = try readDoubleQuoted()
            case UInt8(ascii: "'"): key = try readSingleQuoted()
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "*"), UInt8(ascii: "&"), UInt8(ascii: "!"):
                throw error("\(Self.describe(byte)) cannot start a key of a flow mapping; quote the key")
            case UInt8(ascii: "?") where isIndicatorFollowedBySpace:
                throw error("complex mapping keys (\"? \") are not supported")
            case UInt8(ascii: ","):
                throw error("expected a key, found \",\"")
            default: key = try readFlowPlain()
            }
            try skipFlowSpace()
            var value = JSONValue.null
            if current == UInt8(ascii: ":") {
                advance()
                try skipFlowSpace()
                if current != UInt8(ascii: ","), current != UInt8(ascii: "}") {
                    value = try readFlowNode()
                }
            }
            guard object[key] == nil else {
                throw YAMLError(line: keyLine, column: keyColumn, message: "the mapping key \"\(Self.clip(key))\" appears twice")
            }
            object[key] = value
            try skipFlowSpace()
            guard current != nil else { throw YAMLError(line: openLine, column: openColumn, message: "the \"{\" here is never closed") }
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"): continue
            default:
                throw error("expected \",\" or \"}\" in the flow mapping opened at line \(openLine), found \(Self.describe(current))")
            }
        }
    }

    /// A plain scalar inside a flow collection; it may go on over the following lines.
    private mutating func readFlowPlain() throws -> String {
        var text = try readPlainLine(inFlow: true)
        while current == .lf || current == .space || current == .tab {
            let saved = (index, line, lineStart)
            var breaks = 0
            while let byte = current, Self.isWhitespace(byte) {
                if byte == .lf { breaks += 1 }
                advance()
            }
            guard breaks > 0, let byte = current, !Self.isFlowIndicator(byte), byte != UInt8(ascii: ":"),
                byte != UInt8(ascii: "#")
            else {
                (index, line, lineStart) = saved
                break
            }
            let more = try readPlainLine(inFlow: true)
            text += breaks == 1 ? " " + more : String(repeating: "\n", count: breaks - 1) + more
        }
        return text
    }

    /// Skips whitespace, line breaks and comments inside a flow collection.
    private mutating func skipFlowSpace() throws {
        while let byte = current {
            if Self.isWhitespace(byte) {
                advance()
            } else if byte == UInt8(ascii: "#"), index == lineStart || Self.isWhitespace(bytes[index - 1]) {
                skipRestOfLine()
            } else {
                return
            }
        }
    }
}
