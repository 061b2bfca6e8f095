import Foundation
import URLStubs

/// The literal (`|`) and folded (`>`) block scalars, with their indentation and chomping
/// indicators.
extension YAMLReader {
    /// A `|` (literal) or `>` (folded) scalar; its lines sit right of `parentIndent`.
    mutating func readBlockScalar(parentIndent: Int) throws -> String {
        let folded = current == UInt8(ascii: ">")
        advance()
        var chomping = UInt8(ascii: "c")
        var explicitIndent: Int?
        for _ in 0..<2 {
            guard let byte = current else { break }
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"), chomping == UInt8(ascii: "c") {
                chomping = byte
                advance()
            } else if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9"), explicitIndent == nil {
                explicitIndent = Int(byte - UInt8(ascii: "0"))
                advance()
            }
        }
        let headerEnd = index
        skipSpaces()
        if current == UInt8(ascii: "#"), index > headerEnd { skipRestOfLine() }
        guard current == .lf || current == nil else {
            throw error(
                "expected the end of the line after the block scalar header (\"|\" or \">\" with an optional digit and \"+\" or \"-\"), found \(Self.describe(current))"
            )
        }
        if current == .lf { advance() }
        let base = max(parentIndent, 0)
        let indent = explicitIndent.map { base + $0 } ?? detectedIndent()
        var lines: [ArraySlice<UInt8>] = []
        if indent > parentIndent {
            while index < bytes.count {
                var spaces = 0
                while lineStart + spaces < bytes.count, bytes[lineStart + spaces] == .space, spaces < indent { spaces += 1 }
                var end = lineStart + spaces
                while end < bytes.count, bytes[end] != .lf { end += 1 }
                let content = bytes[(lineStart + spaces)..<end]
                let isBlank = content.allSatisfy { $0 == .space || $0 == .tab }
                if !isBlank, spaces < indent { break }
                if indent == 0, isDocumentMarker("---") || isDocumentMarker("...") { break }
                lines.append(isBlank && spaces < indent ? [] : content)
                index = end
                if index < bytes.count { advance() }
            }
        }
        var trailing = 0
        while let last = lines.last, last.allSatisfy({ $0 == .space || $0 == .tab }) {
            trailing += 1
            lines.removeLast()
        }
        var output: [UInt8] = []
        if folded {
            fold(lines, into: &output)
        } else {
            for (offset, content) in lines.enumerated() {
                if offset > 0 { output.append(.lf) }
                output.append(contentsOf: content)
            }
        }
        switch chomping {
        case UInt8(ascii: "-"): break
        case UInt8(ascii: "+"): output.append(contentsOf: repeatElement(UInt8.lf, count: (lines.isEmpty ? 0 : 1) + trailing))
        default: if !lines.isEmpty { output.append(.lf) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The indentation of the first line that holds more than spaces.
    private func detectedIndent() -> Int {
        var scan = index
        var spaces = 0
        while scan < bytes.count {
            switch bytes[scan] {
            case .space: spaces += 1
            case .lf: spaces = 0
            default: return spaces
            }
            scan += 1
        }
        return 0
    }

    /// Folded lines: a single line break between two text lines becomes a space, a blank line
    /// a line break; lines indented further keep their line breaks.
    private func fold(_ lines: [ArraySlice<UInt8>], into output: inout [UInt8]) {
        var previous: ArraySlice<UInt8>?
        var blanks = 0
        for content in lines {
            if content.isEmpty {
                blanks += 1
                continue
            }
            if let previous {
                let moreIndented = { (line: ArraySlice<UInt8>) in line.first == .space || line.first == .tab }
                if moreIndented(previous) || moreIndented(content) {
                    output.append(contentsOf: repeatElement(UInt8.lf, count: blanks + 1))
                } else if blanks == 0 {
                    output.append(.space)
                } else {
                    output.append(contentsOf: repeatElement(UInt8.lf, count: blanks))
                }
            } else {
                output.append(contentsOf: repeatElement(UInt8.lf, count: blanks))
            }
            output.append(contentsOf: content)
            previous = content
            blanks = 0
        }
    }
}
