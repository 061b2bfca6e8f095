import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a declaration's request pattern selects in a document, found without a request.
enum DeclarationTie {
    /// The one operation the pattern stands for. `pathParameters` holds the values of an exact
    /// path (`nil` when the path is a template or a pattern: its values are not known).
    case operation(OpenAPIOperation, pathParameters: [String: String]?)
    /// The pattern names an exact path or template the document lacks, or a method its path
    /// lacks; `at` is the declaration's JSON path of the part to fix.
    case broken(ContractViolation, at: String)
    /// No one operation: why.
    case untied(String)
}

extension OpenAPIDocument {
    /// Values tried for a template's parameters when a path pattern (a prefix, a regular
    /// expression) is compared with the document's paths.
    private static let sampleValues = ["1", "a", "00000000-0000-4000-8000-000000000000"]

    /// The operation `pattern` stands for: an exact path or a template is selected as a
    /// request's path is (the most specific template; a server's base path may be present);
    /// any other path pattern is tried on a path made from each operation's template, and ties
    /// when exactly one operation fits.
    func tie(_ pattern: RequestPattern) -> DeclarationTie {
        var method = pattern.method
        var path = pattern.path
        var url = pattern.url
        var pathAt = "$.request.path"
        for (index, part) in pattern.allOf.enumerated() {
            if method == nil { method = part.method }
            if path == nil, let found = part.path {
                path = found
                pathAt = "$.request.allOf[\(index)].path"
            }
            if url == nil { url = part.url }
        }
        if path == nil, let url {
            guard case .equalTo(let text, _) = url, let components = URLComponents(string: text) else {
                return .untied("its URL \(url.words) names no path to select an operation by; give a path")
            }
            path = .equalTo(components.path.isEmpty ? "/" : components.path)
            pathAt = "$.request.url"
        }
        guard let path else { return .untied("its request pattern names no path (nor an exact URL) to select an operation by") }
        switch path {
        case .equalTo(let text, _):
            let encoded = text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? text
            return selected(method: method, path: encoded, words: path.words, at: pathAt, isExact: true)
        case .template(let template) where !template.hasSuffix("/**"):
            // A `:name` or `*` segment stands for any value: it fits a parameter of the
            // document's template, never a literal segment.
            let segments = template.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix(":") || segment == "*" ? ":\(segment.drop { $0 == ":" })" : String(segment)
            }
            return selected(method: method, path: segments.joined(separator: "/"), words: path.words, at: pathAt, isExact: false)
        default:
            return fitted(method: method, path: path, at: pathAt)
        }
    }

    /// The operation `method` (any, when `nil`) selects on `path`, or why none does.
    private func selected(method: String?, path: String, words: String, at: String, isExact: Bool) -> DeclarationTie {
        let methods = method.map { [$0] } ?? Array(Set(operations.map(\.method))).sorted()
        var found: [(OpenAPIOperation, [String: String])] = []
        var firstMiss: Selection?
        for candidate in methods {
            let selection = select(method: candidate, path: path)
            if case .operation(let operation, let parameters) = selection {
                found.append((operation, parameters))
            } else if firstMiss == nil {
                firstMiss = selection
            }
        }
        if found.count == 1, let (operation, parameters) = found.first {
            return .operation(operation, pathParameters: isExact ? parameters : nil)
        }
        if found.count > 1 {
            return .untied("its path \(words) with any method fits \(found.count) operations (\(Self.list(found.map(\.0)))); give a method")
        }
        guard let violation = unselected(firstMiss ?? .pathNotDocumented, method: method ?? "ANY", path: path) else {
            return .untied("the document lists no operations")
        }
        return .broken(violation, at: violation.part == "method" ? "$.request.method" : at)
    }

    /// The one operation whose template, filled with sample values, `path` accepts.
    private func fitted(method: String?, path: TextPattern, at: String) -> DeclarationTie {
        let matcher = RequestMatcher(RequestPattern(path: path))
        var fits: [OpenAPIOperation] = []
        for operation in operations where method == nil || operation.method == method {
            let accepted = Self.sampleValues.contains { value in
                let filled = operation.template.filled { _ in value }
                return ([""] + basePaths).contains { base in
                    guard let url = URL(string: "https://contract.check" + base + filled) else { return false }
                    return matcher.matches(StubRequest(URLRequest(url: url)))
                }
            }
            if accepted { fits.append(operation) }
        }
        let what = "its path \(path.words)" + (method.map { " with \($0)" } ?? "")
        switch fits.count {
        case 0: return .untied("\(what) fits no operation of the document")
        case 1: return .operation(fits[0], pathParameters: nil)
        default: return .untied("\(what) fits \(fits.count) operations (\(Self.list(fits))); give a template or an exact path")
        }
    }

    private static func list(_ operations: [OpenAPIOperation]) -> String {
        operations.prefix(4).map(\.description).joined(separator: ", ") + (operations.count > 4 ? ", …" : "")
    }
}
