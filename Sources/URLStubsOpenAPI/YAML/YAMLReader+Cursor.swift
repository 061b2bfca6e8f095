import Foundation
import URLStubs

/// Moving through the bytes: position, line and column, indentation, blank lines and comments.
extension YAMLReader {
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// The 0-based column of the cursor.
    var column: Int { index - lineStart }

    mutating func advance() {
        if bytes[index] == .lf {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    mutating func advance(by count: Int) {
        for _ in 0..<count where index < bytes.count { advance() }
    }

    /// `true` when only spaces and tabs precede the cursor on its line.
    var isFirstOnLine: Bool {
        var scan = lineStart
        while scan < index {
            if bytes[scan] != .space && bytes[scan] != .tab { return false }
            scan += 1
        }
        return true
    }

    /// A `-`, `?` or `:` followed by a space, a line break or the end.
    var isIndicatorFollowedBySpace: Bool {
        guard let next = peek(1) else { return true }
        return next == .space || next == .tab || next == .lf
    }

    func isDocumentMarker(_ marker: StaticString) -> Bool {
        guard column == 0, index + 3 <= bytes.count else { return false }
        let text = marker.utf8Start
        for offset in 0..<3 where bytes[index + offset] != text[offset] { return false }
        guard let after = peek(3) else { return true }
        return after == .space || after == .tab || after == .lf
    }

    /// Indentation is spaces: a tab before the first content of a line is refused.
    func checkIndentation() throws {
        var scan = lineStart
        while scan < index {
            if bytes[scan] == .tab {
                throw YAMLError(line: line, column: scan - lineStart + 1, message: "a tab in indentation; YAML indents with spaces")
            }
            scan += 1
        }
    }

    mutating func skipSpaces() {
        while let byte = current, byte == .space || byte == .tab { index += 1 }
    }

    mutating func skipRestOfLine() {
        while let byte = current, byte != .lf { index += 1 }
    }

    /// Skips spaces, comments and line breaks up to the next content.
    mutating func skipBlankLines() throws {
        while let byte = current {
            switch byte {
            case .space, .tab: index += 1
            case UInt8(ascii: "#"):
                if index > lineStart, bytes[index - 1] != .space, bytes[index - 1] != .tab { return }
                skipRestOfLine()
            case .lf: advance()
            default: return
            }
        }
    }
}
