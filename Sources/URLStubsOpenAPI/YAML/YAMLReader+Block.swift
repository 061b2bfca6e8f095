import Foundation
import URLStubs

/// Block mappings (with `<<` merge keys and explicit `? key` entries) and block sequences.
extension YAMLReader {
    /// A block mapping whose keys sit at column `indent`. `firstKey` is its first key when the
    /// caller read it (the cursor then on its `:`); `nil` when the cursor is on a key to read.
    mutating func readBlockMapping(indent: Int, firstKey: String?) throws -> JSONValue {
        let keepsOrder = ordersNextMapping
        ordersNextMapping = false
        var order: [String] = []
        var entries = MappingEntries()
        var key = firstKey
        while true {
            let start = try readEntryStart(indent: indent, firstKey: key)
            ordersNextMapping = memberOrderName != nil && start.name == memberOrderName
            let value = start.isExplicit ? try readExplicitValue(indent: indent) : try readMappingValue(indent: indent)
            ordersNextMapping = false
            try entries.add(start.name, value, line: start.line, column: indent + 1)
            if keepsOrder, start.name != "<<" { order.append(start.name) }
            guard try isAtNextEntry(of: start.name, indent: indent, keyLine: start.line) else { break }
            key = nil
        }
        let mapping = JSONValue.object(entries.all)
        if keepsOrder { memberOrders[mapping] = order }
        return mapping
    }

    /// The members of a block mapping as they are read, and what `<<` merges into it: keys
    /// written in the mapping win over merged ones, wherever they are.
    struct MappingEntries {
        var object: [String: JSONValue] = [:]
        var merged: [String: JSONValue] = [:]

        mutating func add(_ name: String, _ value: JSONValue, line: Int, column: Int) throws {
            if name == "<<" {
                try Self.merge(value, into: &merged, keyLine: line)
            } else {
                guard object[name] == nil else {
                    throw YAMLError(line: line, column: column, message: "the mapping key \"\(YAMLReader.clip(name))\" appears twice")
                }
                object[name] = value
            }
        }

        var all: [String: JSONValue] {
            var all = object
            for (name, value) in merged where all[name] == nil { all[name] = value }
            return all
        }

        private static func merge(_ value: JSONValue, into object: inout [String: JSONValue], keyLine: Int) throws {
            let sources: [JSONValue]
            switch value {
            case .object: sources = [value]
            case .array(let items): sources = items
            default: throw YAMLError(line: keyLine, column: 1, message: "a merge key (\"<<\") takes a mapping or a sequence of mappings")
            }
            for source in sources {
                guard case .object(let members) = source else {
                    throw YAMLError(line: keyLine, column: 1, message: "a merge key (\"<<\") takes a mapping or a sequence of mappings")
                }
                for (name, member) in members where object[name] == nil { object[name] = member }
            }
        }
    }

    /// A block mapping entry's key: `firstKey` (the cursor on its `:`), a key at the cursor, or
    /// an explicit `? key`; the cursor ends past the `:` of an implicit key.
    private mutating func readEntryStart(indent: Int, firstKey: String?) throws -> (name: String, line: Int, isExplicit: Bool) {
        let keyLine = line
        if let firstKey {
            advance()  // the ":"
            return (firstKey, keyLine, false)
        }
        if current == UInt8(ascii: "?"), isIndicatorFollowedBySpace {
            return (try readExplicitKey(indent: indent), keyLine, true)
        }
        let name = try readBlockKey()
        advance()  // the ":"
        return (name, keyLine, false)
    }

    /// Whether another entry of the mapping at `indent` follows (the cursor then on its key).
    private mutating func isAtNextEntry(of name: String, indent: Int, keyLine: Int) throws -> Bool {
        try skipBlankLines()
        guard current != nil, !isDocumentMarker("---"), !isDocumentMarker("...") else { return false }
        guard isFirstOnLine else {
            throw error("expected the end of the line after the value of \"\(Self.clip(name))\", found \(Self.describe(current))")
        }
        if column < indent { return false }
        if column > indent { throw error("unexpected indentation: a key of the mapping at line \(keyLine) starts at column \(indent + 1)") }
        try checkIndentation()
        return true
    }

    /// A key at the start of a line of a block mapping, up to (not past) its `:`.
    private mutating func readBlockKey() throws -> String {
        guard let byte = current else { throw error("expected a mapping key") }
        let keyLine = line
        let text: String
        switch byte {
        case UInt8(ascii: "\""): text = try readDoubleQuoted()
        case UInt8(ascii: "'"): text = try readSingleQuoted()
        case UInt8(ascii: "-") where isIndicatorFollowedBySpace:
            throw error("expected a mapping key, found a sequence entry (\"- \") at the indentation of the mapping's keys")
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"):
            throw error("\(Self.describe(byte)) cannot start a mapping key here; quote the key")
        default: text = try readPlainLine(inFlow: false)
        }
        skipSpaces()
        guard current == UInt8(ascii: ":"), line == keyLine else {
            throw error("expected \":\" after the mapping key \"\(Self.clip(text))\", found \(Self.describe(current))")
        }
        return text
    }

    /// The key of an explicit entry (`? key`, which YAML writers emit for long keys): a scalar
    /// after the `?`, on its line or below (a block scalar or a multi-line plain one too), always
    /// its text. A mapping or a sequence as a key is refused.
    private mutating func readExplicitKey(indent: Int) throws -> String {
        advance()  // the "?"
        try skipBlankLines()
        guard let byte = current, !isFirstOnLine || column > indent else { return "" }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = byte == UInt8(ascii: "\"") ? try readDoubleQuoted() : try readSingleQuoted()
            try expectEndOfExplicitKey()
            return text
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try readBlockScalar(parentIndent: indent)
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"):
            throw error("a mapping key written after \"? \" must be a scalar; \(Self.describe(byte)) cannot start one here")
        case UInt8(ascii: "-") where isIndicatorFollowedBySpace:
            throw error("a mapping key written after \"? \" must be a scalar, not a sequence")
        default:
            let text = try readPlainLine(inFlow: false)
            if current == UInt8(ascii: ":") { throw error("a mapping key written after \"? \" must be a scalar, not a mapping") }
            let key = try continuePlain(text, parentIndent: indent)
            try expectEndOfExplicitKey()
            return key
        }
    }

    private mutating func expectEndOfExplicitKey() throws {
        skipSpaces()
        if current == UInt8(ascii: "#") { skipRestOfLine() }
        guard current == .lf || current == nil else {
            throw error("expected the end of the line after the key written after \"? \", found \(Self.describe(current))")
        }
    }

    /// The value of an explicit entry: a `: ` at the key's indentation on a following line,
    /// then the value as after a sequence entry's `- ` (a compact mapping may start there).
    /// No `:` line: the value is `null`.
    private mutating func readExplicitValue(indent: Int) throws -> JSONValue {
        try skipBlankLines()
        guard current == UInt8(ascii: ":"), isIndicatorFollowedBySpace, isFirstOnLine, column == indent else { return .null }
        try checkIndentation()
        advance()  // the ":"
        return try readNode(parentIndent: indent, allowsCollections: true)
    }

    /// The value after a block mapping's `key:`: on the same line, or below (a sequence may sit
    /// at the key's own indentation).
    private mutating func readMappingValue(indent: Int) throws -> JSONValue {
        guard try isValueBelow(indent: indent) else { return try readNode(parentIndent: indent, allowsCollections: false) }
        guard try isSequenceAtKeyIndent(indent) else { return try readNode(parentIndent: indent, allowsCollections: true) }
        try enterNode()
        defer { depth -= 1 }
        return try readBlockSequence(indent: indent)
    }

    /// Whether the value after a `key:` starts on a line below (the cursor then at it).
    private mutating func isValueBelow(indent: Int) throws -> Bool {
        skipSpaces()
        guard current == UInt8(ascii: "#") || current == .lf || current == nil else { return false }
        try skipBlankLines()
        return true
    }

    /// Whether a sequence entry sits at the key's own indentation (`key:` then `- a`).
    private func isSequenceAtKeyIndent(_ indent: Int) throws -> Bool {
        guard current == UInt8(ascii: "-"), isIndicatorFollowedBySpace, isFirstOnLine, column == indent else { return false }
        try checkIndentation()
        return true
    }

    mutating func readBlockSequence(indent: Int) throws -> JSONValue {
        var items: [JSONValue] = []
        repeat {
            advance()  // the "-"
            items.append(try readNode(parentIndent: indent, allowsCollections: true))
        } while try isAtNextSequenceEntry(indent: indent)
        return .array(items)
    }

    /// Whether another entry of the sequence at `indent` follows (the cursor then on its `-`).
    private mutating func isAtNextSequenceEntry(indent: Int) throws -> Bool {
        try skipBlankLines()
        guard current != nil, !isDocumentMarker("---"), !isDocumentMarker("...") else { return false }
        guard isFirstOnLine else { throw error("expected the end of the line after a sequence entry, found \(Self.describe(current))") }
        if column < indent { return false }
        if column > indent { throw error("unexpected indentation: the entries of this sequence start at column \(indent + 1)") }
        // Otherwise the next key of a mapping whose value this sequence is.
        guard current == UInt8(ascii: "-"), isIndicatorFollowedBySpace else { return false }
        try checkIndentation()
        return true
    }
}
