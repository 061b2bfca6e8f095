import Foundation
import URLStubs

/// Reads the YAML that API documents are written in into a ``URLStubs/JSONValue``: block and
/// flow mappings and sequences, plain (multi-line too), single- and double-quoted scalars,
/// literal `|` and folded `>` block scalars with their indentation and chomping indicators,
/// comments, document markers, anchors, aliases, `<<` merge keys and explicit `? key` entries
/// whose key is a scalar.
///
/// Scalars resolve as YAML 1.2's core schema says (`null`, `~`, `true`, `12`, `0x1F`, `1.5e3`,
/// `.inf`); a quoted scalar is always a string, and mapping keys are always their text (`200:`
/// is the key `"200"`); core tags (`!!str`) are read and ignored. One document per text.
/// Anything else (a mapping or sequence as a key, custom tags, tabs in indentation, a second
/// document) is a ``YAMLError`` naming its line and column.
///
/// Hostile text is bounded before it costs: nesting stops at ``maximumDepth`` (safe on a
/// 512 KB stack in a debug build), and aliases may make the document at most
/// ``aliasExpansionFactor`` times as many nodes as it has bytes, counted as they are read, so
/// that nothing downstream (schemas compiled, examples copied) walks an alias bomb.
struct YAMLReader {
    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack: a
    /// level costs about 2 KB of stack in a debug build, and a secondary thread on Apple
    /// platforms has 512 KB.
    static let maximumDepth = 128
    /// How many nodes, aliases expanded, the document may make per byte of its text.
    static let aliasExpansionFactor = 1_000

    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    var anchors: [String: Anchor] = [:]
    /// Nodes read so far, each alias counted as the nodes it repeats.
    var nodeCount = 0
    let nodeBudget: Int
    /// Mappings found under a key of this name keep the order of their keys in
    /// ``memberOrders`` (a ``JSONValue`` object does not keep it).
    var memberOrderName: String?
    /// The key order of each mapping found under ``memberOrderName``, keyed by the mapping.
    var memberOrders: [JSONValue: [String]] = [:]
    /// Set while the value of a key named ``memberOrderName`` is read: the mapping that value
    /// is keeps its order.
    var ordersNextMapping = false

    /// An anchored node and how many nodes it stands for.
    struct Anchor {
        let value: JSONValue
        let nodes: Int
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        nodeBudget = max(bytes.count, 100) * Self.aliasExpansionFactor
    }

    /// Reads the one document of `data`.
    static func read(_ data: Data) throws -> JSONValue {
        try read(data, keepingMemberOrderUnder: nil).value
    }

    /// Reads the one document of `data`, with the key order of each mapping found under a key
    /// named `name`, keyed by the mapping.
    static func read(_ data: Data, keepingMemberOrderUnder name: String?) throws -> (value: JSONValue, memberOrders: [JSONValue: [String]]) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        try checkEncoding(bytes)
        try checkPrintable(bytes)
        if bytes.contains(UInt8(ascii: "\r")) { bytes = normalizingLineBreaks(bytes) }
        var reader = YAMLReader(bytes: bytes)
        reader.memberOrderName = name
        let value = try reader.readDocument()
        return (value, reader.memberOrders)
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
    ///
    /// The functions this recurses through keep their frames small: whatever does not recurse
    /// (scalars, keys, messages) happens in functions of its own, whose frames are gone by the
    /// time the next level starts. See ``maximumDepth``.
    mutating func readNode(parentIndent: Int, allowsCollections: Bool) throws -> JSONValue {
        try enterNode()
        defer { depth -= 1 }
        switch try readNodeStart(parentIndent: parentIndent, allowsCollections: allowsCollections) {
        case .value(let value):
            return value
        case .anchor(let name):
            let before = nodeCount
            let value = try readPropertyTarget(parentIndent: parentIndent, allowsCollections: allowsCollections)
            anchors[name] = Anchor(value: value, nodes: nodeCount - before)
            return value
        case .tag:
            return try readPropertyTarget(parentIndent: parentIndent, allowsCollections: allowsCollections)
        case .blockSequence(let indent):
            return try readBlockSequence(indent: indent)
        case .blockMapping(let indent, let firstKey):
            return try readBlockMapping(indent: indent, firstKey: firstKey)
        case .flow:
            let value = try readFlowNode()
            try expectNoKeyAfterNode(what: "a flow collection")
            return value
        }
    }

    /// How a node starts, read up to where nesting would begin.
    enum NodeStart {
        /// A whole node: a scalar, an alias, or nothing.
        case value(JSONValue)
        /// `&name`, then the node it names.
        case anchor(String)
        /// A core tag, then its node.
        case tag
        /// At the `-` of the first entry.
        case blockSequence(indent: Int)
        /// At the `:` after `firstKey`, or at the `?` of an explicit key when it is `nil`.
        case blockMapping(indent: Int, firstKey: String?)
        /// At the `[` or `{`.
        case flow
    }

    private mutating func readNodeStart(parentIndent: Int, allowsCollections: Bool) throws -> NodeStart {
        try skipBlankLines()
        guard let byte = current else { return .value(.null) }
        if isFirstOnLine {
            if column <= parentIndent || isDocumentMarker("---") || isDocumentMarker("...") { return .value(.null) }
            try checkIndentation()
        }
        let indent = column
        switch byte {
        case UInt8(ascii: "&"):
            return .anchor(readPropertyName())
        case UInt8(ascii: "!"):
            try readTag()
            return .tag
        case UInt8(ascii: "*"):
            let value = try readAlias()
            try expectNoKeyAfterNode(what: "an alias")
            return .value(value)
        case UInt8(ascii: "-") where isIndicatorFollowedBySpace:
            guard allowsCollections else { throw error("a block sequence cannot start on the line of its key; start it on the next line") }
            return .blockSequence(indent: indent)
        case UInt8(ascii: "?") where isIndicatorFollowedBySpace:
            guard allowsCollections else { throw error("a mapping cannot start on the line of its key; start it on the next line") }
            return .blockMapping(indent: indent, firstKey: nil)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            return .flow
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return .value(.string(try readBlockScalar(parentIndent: parentIndent)))
        default:
            return try readScalarOrKey(parentIndent: parentIndent, allowsCollections: allowsCollections)
        }
    }

    /// One more level of nesting, and one more node, within their limits.
    mutating func enterNode() throws {
        depth += 1
        nodeCount += 1
        guard depth <= Self.maximumDepth else { throw tooDeep() }
    }

    func tooDeep() -> YAMLError {
        error("nesting deeper than \(Self.maximumDepth) levels")
    }

    /// A quoted or plain scalar at the start of a node: a value, or the first key of a block
    /// mapping (the cursor then on its `:`).
    private mutating func readScalarOrKey(parentIndent: Int, allowsCollections: Bool) throws -> NodeStart {
        let byte = current!
        let keyLine = line, keyColumn = column
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = byte == UInt8(ascii: "\"") ? try readDoubleQuoted() : try readSingleQuoted()
            skipSpaces()
            if current == UInt8(ascii: ":"), line == keyLine {
                guard allowsCollections else { throw error("a mapping cannot start on the line of its key; start it on the next line") }
                return .blockMapping(indent: keyColumn, firstKey: text)
            }
            return .value(.string(text))
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
                return .blockMapping(indent: keyColumn, firstKey: text)
            }
            return .value(Self.resolvePlain(try continuePlain(text, parentIndent: parentIndent)))
        }
    }

    /// The node an anchor or a tag stands before: on the same line, or on the lines below.
    private mutating func readPropertyTarget(parentIndent: Int, allowsCollections: Bool) throws -> JSONValue {
        skipSpaces()
        let onLinesBelow = current == UInt8(ascii: "#") || current == .lf || current == nil
        return try readNode(parentIndent: parentIndent, allowsCollections: onLinesBelow || allowsCollections)
    }

    private mutating func expectNoKeyAfterNode(what: String) throws {
        let nodeLine = line
        skipSpaces()
        if current == UInt8(ascii: ":"), line == nodeLine {
            throw error("\(what) as a mapping key is not supported")
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
