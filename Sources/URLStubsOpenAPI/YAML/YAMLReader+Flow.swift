import Foundation
import URLStubs

/// Flow collections: `[a, b]` and `{key: value}`, across lines, nested, with comments.
extension YAMLReader {
    /// A node inside (or opening) a flow collection. Like ``readNode(parentIndent:allowsCollections:)``,
    /// what does not recurse happens in functions of its own, to keep each level's frames small.
    mutating func readFlowNode() throws -> JSONValue {
        try enterNode()
        defer { depth -= 1 }
        switch try readFlowNodeStart() {
        case .value(let value):
            return value
        case .anchor(let name):
            let before = nodeCount
            let value = try readFlowNode()
            anchors[name] = Anchor(value: value, nodes: nodeCount - before)
            return value
        case .tag:
            return try readFlowNode()
        case .flow:
            return current == UInt8(ascii: "[") ? try readFlowSequence() : try readFlowMapping()
        case .blockSequence, .blockMapping:
            preconditionFailure("a flow node never starts a block collection")
        }
    }

    private mutating func readFlowNodeStart() throws -> NodeStart {
        try skipFlowSpace()
        guard let byte = current else { throw error("expected a value inside a flow collection, found the end of the text") }
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"): return .flow
        case UInt8(ascii: "\""): return .value(.string(try readDoubleQuoted()))
        case UInt8(ascii: "'"): return .value(.string(try readSingleQuoted()))
        case UInt8(ascii: "*"): return .value(try readFlowAlias())
        case UInt8(ascii: "&"): return .anchor(readFlowPropertyName())
        case UInt8(ascii: "!"):
            try readFlowTag()
            return .tag
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            throw error("expected a value, found \(Self.describe(byte))")
        default:
            return .value(Self.resolvePlain(try readFlowPlain()))
        }
    }

    private mutating func readFlowAlias() throws -> JSONValue {
        let aliasLine = line, aliasColumn = column + 1
        return try resolveAlias(readFlowPropertyName(), line: aliasLine, column: aliasColumn)
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
        let opening = (line: line, column: column + 1)
        advance()
        var items: [JSONValue] = []
        while try !isAtFlowEnd(UInt8(ascii: "]"), opening: opening) {
            items.append(try readFlowNode())
            try expectFlowSeparator(UInt8(ascii: "]"), opening: opening)
        }
        return .array(items)
    }

    private mutating func readFlowMapping() throws -> JSONValue {
        let opening = (line: line, column: column + 1)
        advance()
        let keepsOrder = ordersNextMapping
        ordersNextMapping = false
        var order: [String] = []
        var object: [String: JSONValue] = [:]
        while try !isAtFlowEnd(UInt8(ascii: "}"), opening: opening) {
            let key = try readFlowKey()
            ordersNextMapping = memberOrderName != nil && key.text == memberOrderName
            let value = try hasFlowValue() ? try readFlowNode() : JSONValue.null
            ordersNextMapping = false
            guard object[key.text] == nil else { throw duplicateFlowKey(key) }
            object[key.text] = value
            if keepsOrder { order.append(key.text) }
            try expectFlowSeparator(UInt8(ascii: "}"), opening: opening)
        }
        let mapping = JSONValue.object(object)
        if keepsOrder { memberOrders[mapping] = order }
        return mapping
    }

    /// Past the closing bracket when it comes next (`true`); at the next entry otherwise.
    private mutating func isAtFlowEnd(_ closing: UInt8, opening: (line: Int, column: Int)) throws -> Bool {
        try skipFlowSpace()
        guard let byte = current else { throw neverClosed(opening, closing) }
        guard byte == closing else { return false }
        advance()
        return true
    }

    /// After an entry: a `,` (skipped) or the closing bracket (left for ``isAtFlowEnd(_:opening:)``).
    private mutating func expectFlowSeparator(_ closing: UInt8, opening: (line: Int, column: Int)) throws {
        try skipFlowSpace()
        guard let byte = current else { throw neverClosed(opening, closing) }
        if byte == UInt8(ascii: ",") {
            advance()
        } else if byte != closing {
            if closing == UInt8(ascii: "]"), byte == UInt8(ascii: ":") {
                throw error("a \"key: value\" pair inside a flow sequence is not supported; write it as {key: value}")
            }
            let kind = closing == UInt8(ascii: "]") ? "sequence" : "mapping"
            throw error(
                "expected \",\" or \(Self.describe(closing)) in the flow \(kind) opened at line \(opening.line), found \(Self.describe(current))")
        }
    }

    private func neverClosed(_ opening: (line: Int, column: Int), _ closing: UInt8) -> YAMLError {
        let bracket = closing == UInt8(ascii: "]") ? "[" : "{"
        return YAMLError(line: opening.line, column: opening.column, message: "the \"\(bracket)\" here is never closed")
    }

    private func duplicateFlowKey(_ key: (text: String, line: Int, column: Int)) -> YAMLError {
        YAMLError(line: key.line, column: key.column, message: "the mapping key \"\(Self.clip(key.text))\" appears twice")
    }

    /// A flow mapping's key (an explicit `? key` too), and where it starts.
    private mutating func readFlowKey() throws -> (text: String, line: Int, column: Int) {
        let keyLine = line, keyColumn = column + 1
        var byte = current!
        if byte == UInt8(ascii: "?"), isIndicatorFollowedBySpace {
            advance()
            try skipFlowSpace()
            byte = current ?? UInt8(ascii: ",")
        }
        let text: String
        switch byte {
        case UInt8(ascii: "\""): text = try readDoubleQuoted()
        case UInt8(ascii: "'"): text = try readSingleQuoted()
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "*"), UInt8(ascii: "&"), UInt8(ascii: "!"):
            throw error("\(Self.describe(byte)) cannot start a key of a flow mapping; quote the key")
        case UInt8(ascii: ","):
            throw error("expected a key, found \(Self.describe(current))")
        default: text = try readFlowPlain()
        }
        return (text, keyLine, keyColumn)
    }

    /// Past the `:` when a value follows the key; `false` for a key alone (`{a, b: 1}`).
    private mutating func hasFlowValue() throws -> Bool {
        try skipFlowSpace()
        guard current == UInt8(ascii: ":") else { return false }
        advance()
        try skipFlowSpace()
        return current != UInt8(ascii: ",") && current != UInt8(ascii: "}")
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
