import Foundation
import URLStubs
import URLStubsMultipart

/// What a matcher needs to know about a GraphQL document: its operations (type and name) and
/// fragments, read without a schema and without building a syntax tree.
///
/// The reader follows the document's top-level definitions, so `query` inside a comment, a
/// string, a field name or a fragment never counts as an operation. It never traps and never
/// recurses: malformed text (an unclosed brace, a stray character) keeps what could be read
/// and reports the first problem in ``syntaxError``.
struct GraphQLDocument: Sendable, Equatable {
    struct Operation: Sendable, Equatable, CustomStringConvertible {
        /// `query`, `mutation` or `subscription`.
        let type: String
        /// `nil` for an anonymous operation (`{ me { id } }` or `query { … }`).
        let name: String?

        var description: String { name.map { "\(type) \($0)" } ?? "anonymous \(type)" }
    }

    let operations: [Operation]
    let fragments: [String]
    let syntaxError: GraphQLSyntaxError?

    init(_ text: String) {
        var lexer = GraphQLLexer(text)
        var operations: [Operation] = []
        var fragments: [String] = []
        var open: [UInt8] = []  // the brackets open at this point: ( [ {
        var atDefinitionStart = true
        var pending: GraphQLLexer.Token?

        func nextToken() -> GraphQLLexer.Token? {
            if let token = pending { pending = nil; return token }
            return lexer.next()
        }
        func peekName() -> String? {
            guard let token = nextToken() else { return nil }
            if token.kind == .name { return lexer.text(of: token) }
            pending = token
            return nil
        }

        var previous: GraphQLLexer.Token?
        while let token = nextToken() {
            defer { previous = token }
            let first = lexer.bytes[token.range.lowerBound]
            if token.kind == .punctuator, first == UInt8(ascii: "{") || first == UInt8(ascii: "(") || first == UInt8(ascii: "[") {
                if open.isEmpty, atDefinitionStart, first == UInt8(ascii: "{") {
                    operations.append(Operation(type: "query", name: nil))  // the query shorthand
                    atDefinitionStart = false
                }
                open.append(first)
                continue
            }
            if token.kind == .punctuator, first == UInt8(ascii: "}") || first == UInt8(ascii: ")") || first == UInt8(ascii: "]") {
                let expected: UInt8 =
                    first == UInt8(ascii: "}") ? UInt8(ascii: "{") : first == UInt8(ascii: ")") ? UInt8(ascii: "(") : UInt8(ascii: "[")
                guard open.last == expected else {
                    lexer.fail(at: token.range.lowerBound, "\"\(lexer.text(of: token))\" closes nothing that is open")
                    continue
                }
                open.removeLast()
                // A top-level selection set (or type body) closing ends its definition.
                if open.isEmpty, first == UInt8(ascii: "}") { atDefinitionStart = true }
                continue
            }
            guard open.isEmpty, token.kind == .name else { continue }
            // A directive, variable or type name spelled like a keyword (`@query`, `on query`).
            if let previous, ["@", "$", ":", "=", "|", "&", "on"].contains(lexer.text(of: previous)) { continue }
            let word = lexer.text(of: token)
            switch word {
            case "query", "mutation", "subscription":
                // At depth 0 these begin a definition even after a type-system definition
                // that had no braces (`scalar Date`).
                operations.append(Operation(type: word, name: peekName()))
                atDefinitionStart = false
            case "fragment" where atDefinitionStart:
                if let name = peekName() { fragments.append(name) }
                atDefinitionStart = false
            default:
                if atDefinitionStart { atDefinitionStart = false }  // a type-system definition
            }
        }
        if !open.isEmpty {
            lexer.fail(at: lexer.bytes.count, "\(open.count) bracket\(open.count == 1 ? " is" : "s are") never closed")
        }
        self.operations = operations
        self.fragments = fragments
        self.syntaxError = lexer.error
    }

    /// The operation a request runs: the one named `operationName`, or the only one when the
    /// request names none (the GraphQL spec's rule). `nil` with the reason otherwise.
    func operation(named operationName: String?) -> Result<Operation, GraphQLDocumentProblem> {
        if let operationName {
            if let found = operations.first(where: { $0.name == operationName }) { return .success(found) }
            return .failure(.notDefined(operationName, defined: operations))
        }
        switch operations.count {
        case 0: return .failure(.noOperation(syntaxError))
        case 1: return .success(operations[0])
        default: return .failure(.ambiguous(operations))
        }
    }
}

/// Why a document does not say which operation runs.
enum GraphQLDocumentProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case noOperation(GraphQLSyntaxError?)
    case ambiguous([GraphQLDocument.Operation])
    case notDefined(String, defined: [GraphQLDocument.Operation])

    var description: String {
        switch self {
        case .noOperation(let error):
            return "a document with no operation" + (error.map { " (\($0))" } ?? "")
        case .ambiguous(let operations):
            return "a document with \(operations.count) operations (\(operations.map(\.description).joined(separator: ", "))) and no operationName"
        case .notDefined(let name, let defined):
            return
                "operationName \"\(name)\", which the document does not define (it defines \(defined.isEmpty ? "none" : defined.map(\.description).joined(separator: ", ")))"
        }
    }
}
