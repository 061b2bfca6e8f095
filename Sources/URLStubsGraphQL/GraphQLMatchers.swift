import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs
import URLStubsMultipart

// GraphQL sends every operation to one URL, so these matchers read the operation itself:
// from a POST JSON body, from the `query`, `operationName`, `variables` and `extensions`
// parameters of a GET (automatic persisted queries), or from the `operations` field of a
// multipart upload. A batch (a JSON array of operations) is answered operation by operation:
// each element is matched against the stubs on its own and the answers are joined into one
// array, so these matchers never accept a batch as a whole.

/// Accepts GraphQL requests running the operation `name`: their `operationName`, or, when
/// that is absent, the name of the one operation their document defines.
///
/// ```swift
/// registry.stub(isPath("/graphql") && isGraphQLOperation("GetUser")) { _ in
///     try StubResponse(json: ["data": ["user": ["id": "1", "name": "Ada"]]])
/// }
/// ```
///
/// Matches persisted queries sent by hash only (`extensions.persistedQuery.sha256Hash`, no
/// document) by their `operationName`, which Apollo always sends. The registry's index files
/// stubs by operation name, so thousands of operations on one endpoint cost one lookup.
///
/// - Important: The name is the operation's, not the root field's: `query GetUser { user { id } }`
///   is `"GetUser"`. An anonymous operation (`{ user { id } }`) matches no name; match it with
///   ``isGraphQLQuery(containing:)``.
public func isGraphQLOperation(_ name: String) -> RequestMatcher {
    GraphQLStrategy.register()
    return RequestMatcher(
        description: "GraphQL operation \"\(name)\"", indexKey: IndexKey(GraphQLStrategy.operationKind, name)
    ) { request in
        graphQLOperation(of: request, expecting: "operation \"\(name)\"") { operation in
            switch operation.name {
            case .named(let actual, _):
                return actual == name ? nil : "expected operation \"\(name)\", got \"\(actual)\""
            case .anonymous(let type):
                return "expected operation \"\(name)\", got an anonymous \(type)"
            case .unknown(let reason):
                return "expected operation \"\(name)\", got \(reason)"
            }
        }
    }.described(by: RequestPattern(body: [.kind(GraphQLPatternKinds.operation, .string(name))]))
}

/// Accepts GraphQL requests whose variables include `variables`: each listed variable must be
/// present and equal as JSON (`1` equals `1.0`; objects compare by key); others may be present.
///
/// ```swift
/// registry.stub(isGraphQLOperation("GetUser") && hasGraphQLVariables(["id": 1])) { _ in … }
/// ```
///
/// A mismatch names the variable by JSON path: `$.variables.id: expected 1, got 2`.
public func hasGraphQLVariables(_ variables: [String: Any]) -> RequestMatcher {
    GraphQLStrategy.register()
    guard case .object(let expected)? = try? JSONValue(any: variables) else {
        return .invalid("GraphQL variables", problem: "hasGraphQLVariables was given values that are not JSON: \(variables)")
    }
    let description = "GraphQL variables contain \(JSONValue.object(expected))"
    return RequestMatcher(description: description) { request in
        graphQLOperation(of: request, expecting: "GraphQL variables \(JSONValue.object(expected))") { operation in
            let actual = operation.variables ?? [:]
            var lines: [String] = []
            for name in expected.keys.sorted() {
                let path = "$.variables.\(name)"
                guard let value = actual[name] else {
                    lines.append("\(path): missing, expected \(expected[name]!)")
                    continue
                }
                lines += expected[name]!.differenceLines(from: value, path: path)
            }
            return lines.isEmpty ? nil : lines.joined(separator: "; ")
        }
    }.described(by: RequestPattern(body: [.kind(GraphQLPatternKinds.variables, .object(expected))]))
}

/// Accepts GraphQL requests whose document contains `text`: as written, or token by token,
/// so white space, commas, line breaks and comments do not matter
/// (`"user(id: $id) { name"` matches `user(id:$id){\n  name`).
///
/// - Important: A persisted query sent by hash only carries no document, so it never matches;
///   match it by ``isGraphQLOperation(_:)``.
public func isGraphQLQuery(containing text: String) -> RequestMatcher {
    GraphQLStrategy.register()
    let expectedTokens = GraphQLLexer.tokenTexts(text)
    return RequestMatcher(description: "GraphQL query containing \"\(text)\"") { request in
        graphQLOperation(of: request, expecting: "a query containing \"\(text)\"") { operation in
            guard let document = operation.document else {
                let hash = operation.persistedQueryHash.map { " (sha256Hash \($0.prefix(12))…)" } ?? ""
                return "expected a query containing \"\(text)\", got a persisted query\(hash) sent without its document"
            }
            if document.contains(text) { return nil }
            if !expectedTokens.isEmpty, containsRun(expectedTokens, in: GraphQLLexer.tokenTexts(document)) { return nil }
            let shown = document.count > 120 ? "\(document.prefix(120))…" : document
            return "expected a query containing \"\(text)\", got \"\(shown)\""
        }
    }.described(by: RequestPattern(body: [.kind(GraphQLPatternKinds.queryContaining, .string(text))]))
}

/// Applies `check` to the one operation of a GraphQL request, or explains why there is none.
/// An unknown body (a stream being claimed, an upload task on Apple platforms) answers
/// "maybe", like every body matcher: the registry decides once the body is read, or fails the
/// request with ``StubError/requestBodyUnavailable(stub:url:)`` when it never can be.
private func graphQLOperation(
    of request: StubRequest, expecting expected: String,
    _ check: (GraphQLOperationRequest) -> String?
) -> MatcherVerdict {
    switch GraphQLRequest.read(request) {
    case .bodyUnknown:
        return .bodyUnknown
    case .single(let operation):
        return check(operation).map(MatcherVerdict.failed) ?? .matched
    case .batch(let operations):
        let names = operations.map { $0.resolvedName ?? "?" }.joined(separator: ", ")
        return .failed(
            "expected \(expected), got a batch of \(operations.count) operations (\(names)); each operation of a batch is matched on its own")
    case .notGraphQL(let reason):
        return .failed("expected \(expected), got a request that is not GraphQL (\(reason))")
    case .invalid(let reason):
        return .failed("expected \(expected), got an invalid GraphQL request: \(reason)")
    }
}

/// Whether `needle` appears as a contiguous run in `haystack`.
private func containsRun(_ needle: [String], in haystack: [String]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
    }
    return false
}
