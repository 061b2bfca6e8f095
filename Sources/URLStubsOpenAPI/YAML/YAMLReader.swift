import Foundation
import URLStubs

/// Reads the YAML that API documents are written in into a ``URLStubs/JSONValue``: block and
/// flow mappings and sequences, plain (multi-line too), single- and double-quoted scalars,
/// literal `|` and folded `>` block scalars with their indentation and chomping indicators,
/// comments, document markers, anchors, aliases and `<<` merge keys.
///
/// Scalars resolve as YAML 1.2's core schema says (`null`, `~`, `true`, `12`, `0x1F`, `1.5e3`,
/// `.inf`); a quoted scalar is always a string, and mapping keys are always their text (`200:`
/// is the key `"200"`); core tags (`!!str`) are read and ignored. One document per text.
/// Anything else (complex `?` keys, custom tags,
/// tabs in indentation, a second document) is a ``YAMLError`` naming its line and column.
struct YAMLReader {
    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 256

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    var anchors: [String: JSONValue] = [:]

    /// Reads the one document of `data`.
    static func read(_ data: Data) throws -> JSONValue {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.contains(UInt8(ascii: "\r")) { bytes = normalizingLineBreaks(bytes) }
        var reader = YAMLReader(bytes: bytes)
        return try reader.readDocument()
    }

    /// `\r\n` and a lone `\r` become `\n`.
    private static func normalizingLineBreaks(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .cr {
                output.append(.lf)
                if index + 1 < bytes.count, bytes[index + 1] == .lf { index += 1 }
            } else {
                output.append(byte)
            }
            index += 1
        }
        return output
    }

    // MARK: Document

    private mutating func readDocument() throws -> JSONValue {
        try skipBlankLines()
        // Directives (`%YAML 1.2`) are read as comments; the document then starts at `---`.
        while current == UInt8(ascii: "%"), column == 0 {
            skipRestOfLine()
            try skipBlankLines()
        }
        if isDocumentMarker("---") {
            advance(by: 3)
        }
        let value = try readNode(parentIndent: -1, allowsCollections: true)
        try skipBlankLines()
        if isDocumentMarker("...") {
            advance(by: 3)
            try skipBlankLines()
        }
        if isDocumentMarker("---") {
            throw error("a second document: only one YAML document per text is read")
        }
        if let byte = current {
            throw error("unexpected \(Self.describe(byte)) after the end of the document's top-level node")
        }
        return value
    }

    // MARK: Block nodes

    /// Reads the node at the next content, which must sit right of `parentIndent` when it
    /// starts a line; an empty node is `null`. `allowsCollections` is `false` for a value
    /// written on its key's line (`a: b: c` is an error).
    mutating func readNode(parentIndent: Int, allowsCollections: Bool) throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        try skipBlankLines()
        guard let byte = current else { return .null }
        let startsLine = isFirstOnLine
        if startsLine {
            if column <= parentIndent || isDocumentMarker("---") || isDocumentMarker("...") { return .null }
            try checkIndentation()
        }
        let indent = column
        switch byte {
        case UInt8(ascii: "&"):
            let name = readPropertyName()
            let value = try readPropertyTarget(parentIndent: parentIndent, allowsCollections: allowsCollections)
            anchors[name] = value
            return value
        case UInt8(ascii: "!"):
            try readTag()
            return try readPropertyTarget(parentIndent: parentIndent, allowsCollections: allowsCollections)
        case UInt8(ascii: "*"):
            let value = try readAlias()
            try expectNoKeyAfterNode(allowsCollections: allowsCollections, what: "an alias")
            return value
        case UInt8(ascii: "-") where isIndicatorFollowedBySpace:
            guard allowsCollections else { throw error("a block sequence cannot start on the line of its key; start it on the next line") }
            return try readBlockSequence(indent: indent)
        case UInt8(ascii: "?") where isIndicatorFollowedBySpace:
            throw error("complex mapping keys (\"? \") are not supported")
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let value = try readFlowNode()
            try expectNoKeyAfterNode(allowsCollections: allowsCollections, what: "a flow collection")
            return value
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return .string(try readBlockScalar(parentIndent: parentIndent))
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let keyLine = line, keyColumn = column
            let text = byte == UInt8(ascii: "\"") ? try readDoubleQuoted() : try readSingleQuoted()
            skipSpaces()
            if current == UInt8(ascii: ":"), line == keyLine {
                guard allowsCollections else { throw error("a mapping cannot start on the line of its key; start it on the next line") }
                return try readBlockMapping(indent: keyColumn, firstKey: text)
            }
            return .string(text)
        case UInt8(ascii: "@"), UInt8(ascii: "`"):
            throw error("\(Self.describe(byte)) is reserved in YAML and cannot start a plain scalar; quote the value")
        default:
            let text = try readPlainLine(inFlow: false)
            if current == UInt8(ascii: ":") {
                guard allowsCollections else {
                    throw error(
                        "a mapping cannot start on the line of its key (\"\(Self.clip(text))\" is followed by \":\"); quote the value or start the mapping on the next line"
                    )
                }
                return try readBlockMapping(indent: indent, firstKey: text)
            }
            return Self.resolvePlain(try continuePlain(text, parentIndent: parentIndent))
        }
    }

    /// The node an anchor or a tag stands before: on the same line, or on the lines below.
    private mutating func readPropertyTarget(parentIndent: Int, allowsCollections: Bool) throws -> JSONValue {
        skipSpaces()
        if current == UInt8(ascii: "#") || current == .lf || current == nil {
            return try readNode(parentIndent: parentIndent, allowsCollections: true)
        }
        return try readNode(parentIndent: parentIndent, allowsCollections: allowsCollections)
    }

    private mutating func expectNoKeyAfterNode(allowsCollections: Bool, what: String) throws {
        let nodeLine = line
        skipSpaces()
        if current == UInt8(ascii: ":"), line == nodeLine {
            throw error("\(what) as a mapping key is not supported")
        }
    }

    private mutating func readBlockMapping(indent: Int, firstKey: String) throws -> JSONValue {
        var object: [String: JSONValue] = [:]
        // `<<` merges: keys written in the mapping win over merged ones, wherever they are.
        var merged: [String: JSONValue] = [:]
        var key: String? = firstKey
        var keyLine = line
        while true {
            let name: String
            if let key {
                name = key
            } else {
                keyLine = line
                name = try readBlockKey()
            }
            // At the ":".
            advance()
            let value = try readMappingValue(indent: indent)
            if name == "<<" {
                try merge(value, into: &merged, keyLine: keyLine)
            } else {
                guard object[name] == nil else {
                    throw YAMLError(line: keyLine, column: indent + 1, message: "the mapping key \"\(Self.clip(name))\" appears twice")
                }
                object[name] = value
            }
            try skipBlankLines()
            guard current != nil, !isDocumentMarker("---"), !isDocumentMarker("...") else { break }
            guard isFirstOnLine else {
                throw error("expected the end of the line after the value of \"\(Self.clip(name))\", found \(Self.describe(current))")
            }
            if column < indent { break }
            if column > indent {
                throw error("unexpected indentation: a key of the mapping at line \(keyLine) starts at column \(indent + 1)")
            }
            try checkIndentation()
            key = nil
        }
        for (name, value) in merged where object[name] == nil { object[name] = value }
        return .object(object)
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
        case UInt8(ascii: "?") where isIndicatorFollowedBySpace:
            throw error("complex mapping keys (\"? \") are not supported")
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

    /// The value after a block mapping's `key:`: on the same line, or below (a sequence may sit
    /// at the key's own indentation).
    private mutating func readMappingValue(indent: Int) throws -> JSONValue {
        skipSpaces()
        if current == UInt8(ascii: "#") || current == .lf || current == nil {
            try skipBlankLines()
            if current == UInt8(ascii: "-"), isIndicatorFollowedBySpace, isFirstOnLine, column == indent {
                try checkIndentation()
                depth += 1
                defer { depth -= 1 }
                guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
                return try readBlockSequence(indent: indent)
            }
            return try readNode(parentIndent: indent, allowsCollections: true)
        }
        return try readNode(parentIndent: indent, allowsCollections: false)
    }

    private mutating func merge(_ value: JSONValue, into object: inout [String: JSONValue], keyLine: Int) throws {
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

    private mutating func readBlockSequence(indent: Int) throws -> JSONValue {
        var items: [JSONValue] = []
        while true {
            // At the "-".
            advance()
            items.append(try readNode(parentIndent: indent, allowsCollections: true))
            try skipBlankLines()
            guard current != nil, !isDocumentMarker("---"), !isDocumentMarker("...") else { break }
            guard isFirstOnLine else {
                throw error("expected the end of the line after a sequence entry, found \(Self.describe(current))")
            }
            if column < indent { break }
            if column > indent {
                throw error("unexpected indentation: the entries of this sequence start at column \(indent + 1)")
            }
            // The next key of a mapping whose value this sequence is.
            guard current == UInt8(ascii: "-"), isIndicatorFollowedBySpace else { break }
            try checkIndentation()
        }
        return .array(items)
    }

    // MARK: Properties

    private mutating func readPropertyName() -> String {
        advance()
        let start = index
        while let byte = current, !Self.isWhitespace(byte), !Self.isFlowIndicator(byte) { advance() }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func readAlias() throws -> JSONValue {
        let aliasLine = line, aliasColumn = column + 1
        let name = readPropertyName()
        guard let value = anchors[name] else {
            throw YAMLError(line: aliasLine, column: aliasColumn, message: "the alias \"*\(Self.clip(name))\" names no anchor defined before it")
        }
        return value
    }

    /// Core-schema tags (`!!str`, `!!int`, …) are accepted and ignored: the scalar resolves as
    /// if untagged (`!!str 12` is the integer 12; quote it to make it text).
    private mutating func readTag() throws {
        let tagLine = line, tagColumn = column + 1
        let name = "!" + readPropertyName()
        let core = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!"]
        guard core.contains(name) else {
            throw YAMLError(line: tagLine, column: tagColumn, message: "the tag \"\(Self.clip(name))\" is not supported (only YAML's core tags are)")
        }
    }

    func error(_ message: String) -> YAMLError {
        YAMLError(line: line, column: column + 1, message: message)
    }

    // MARK: Character classes

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == .space || byte == .tab || byte == .lf }

    static func isFlowIndicator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): return true
        default: return false
        }
    }

    /// `"x"`, `the end of the line`, `the end of the text`.
    static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the text" }
        switch byte {
        case .lf: return "the end of the line"
        case .tab: return "a tab"
        case 0x20...0x7E: return "\"\(Character(Unicode.Scalar(byte)))\""
        default: return "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    /// A quoted text cut to 60 characters, for messages.
    static func clip(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

extension UInt8 {
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
}
