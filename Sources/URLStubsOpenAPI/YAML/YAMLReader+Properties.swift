import Foundation
import URLStubs

/// Anchors (`&name`), aliases (`*name`) within the document's node budget, and core tags.
extension YAMLReader {
    mutating func readPropertyName() -> String {
        advance()
        let start = index
        while let byte = current, !Self.isWhitespace(byte), !Self.isFlowIndicator(byte) { advance() }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func readAlias() throws -> JSONValue {
        let aliasLine = line, aliasColumn = column + 1
        return try resolveAlias(readPropertyName(), line: aliasLine, column: aliasColumn)
    }

    /// The anchored node `name` repeats, counted as all the nodes it stands for: aliases of
    /// aliases multiply, and the count stops them at the budget.
    mutating func resolveAlias(_ name: String, line aliasLine: Int, column aliasColumn: Int) throws -> JSONValue {
        guard let anchor = anchors[name] else {
            throw YAMLError(line: aliasLine, column: aliasColumn, message: "the alias \"*\(Self.clip(name))\" names no anchor defined before it")
        }
        nodeCount += anchor.nodes
        guard nodeCount <= nodeBudget else { throw aliasBudgetExceeded(name, line: aliasLine, column: aliasColumn) }
        return anchor.value
    }

    private func aliasBudgetExceeded(_ name: String, line aliasLine: Int, column aliasColumn: Int) -> YAMLError {
        YAMLError(
            line: aliasLine, column: aliasColumn,
            message:
                "the alias \"*\(Self.clip(name))\" takes the document past \(nodeBudget) nodes (\(Self.aliasExpansionFactor) per byte of its text): "
                + "aliases of aliases multiply what they repeat; write the shared part once and refer to it with $ref")
    }

    /// Core-schema tags (`!!str`, `!!int`, …) are accepted and ignored: the scalar resolves as
    /// if untagged (`!!str 12` is the integer 12; quote it to make it text).
    mutating func readTag() throws {
        let tagLine = line, tagColumn = column + 1
        let name = "!" + readPropertyName()
        let core = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq", "!"]
        guard core.contains(name) else {
            throw YAMLError(line: tagLine, column: tagColumn, message: "the tag \"\(Self.clip(name))\" is not supported (only YAML's core tags are)")
        }
    }
}
