import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The explanation printed when a request matches no stub: the closest stubs, ranked, the
/// reasons each refused, and a stub declaration that would have matched.
///
/// A GraphQL request is described by its operation and variables, a multipart body by its
/// parts (or why it cannot be read), and a GraphQL batch operation by operation: which stub
/// answers each, and the near misses of those that none does.
struct UnmatchedReport {
    let request: StubRequest
    let stubs: [StubDescriptor]
    /// What the text hides: the request's secrets, wherever they appear (its URL, its body, a
    /// matcher's "got" value, the snippet).
    var scrubbing = Scrubbing.default
    var maximumCandidates = 3

    var text: String {
        ReportText.boundingLines(scrubbing.redactor(for: request).redact(unredactedText))
    }

    private var unredactedText: String {
        var lines = ["URLStubs: no stub matches \(request)"]
        if let body = request.body, !body.isEmpty {
            lines.append("  body: \(describeBody(body))")
            if let note = JSONValue.tooDeepBodyNote(body) { lines.append("  \(note)") }
        }
        lines += protocolLines
        if case .batch(let operations) = graphQL {
            lines += batchLines(operations)
        } else {
            lines += closestStubLines
        }
        lines.append("To stub this request, add:")
        lines.append(snippet.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n"))
        return lines.joined(separator: "\n")
    }

    struct Candidate {
        let stub: StubDescriptor
        let reasons: [String]
        let passed: Int
    }

    /// Stubs ordered by fewest failed conditions, then most satisfied ones, then newest.
    var rankedCandidates: [Candidate] {
        stubs.reversed().map { stub -> Candidate in
            let result = stub.matcher.evaluate(request)
            var reasons = result.failures
            if !stub.matcher.problems.isEmpty { reasons = stub.matcher.problems }
            if result.isMatch, stub.isUsedUp {
                reasons = ["used up: it may answer \(ReportText.times(stub.maxActivations ?? 0)) and already did"]
            }
            return Candidate(stub: stub, reasons: reasons, passed: result.passed)
        }
        .enumerated()
        .sorted { lhs, rhs in
            let left = lhs.element, right = rhs.element
            if left.reasons.count != right.reasons.count { return left.reasons.count < right.reasons.count }
            if left.passed != right.passed { return left.passed > right.passed }
            return lhs.offset < rhs.offset
        }
        .map(\.element)
    }

    /// "Closest stubs:" and each one's reasons (or "The registry has no stubs.").
    var closestStubLines: [String] {
        let ranked = rankedCandidates
        guard !ranked.isEmpty else { return ["The registry has no stubs."] }
        var lines = ["Closest stubs:"]
        for (position, candidate) in ranked.prefix(maximumCandidates).enumerated() {
            lines.append("  \(position + 1). \(candidate.stub)")
            for reason in candidate.reasons {
                lines.append("     - \(reason)")
            }
        }
        if ranked.count > maximumCandidates {
            lines.append("  (\(ranked.count - maximumCandidates) more stubs matched less)")
        }
        return lines
    }

    /// Swift that stubs exactly this request, ready to paste into a test. For a GraphQL batch,
    /// one stub per operation that no stub answers.
    var snippet: String {
        if case .batch(let operations) = graphQL {
            let missing = operations.map(request.answering).filter { answeringStub(for: $0) == nil }
            return missing.map { Self.snippet(for: $0, scrubbing: scrubbing) }.joined(separator: "\n")
        }
        return Self.snippet(for: request, scrubbing: scrubbing)
    }

    // MARK: GraphQL and multipart

    private var graphQL: GraphQLRequest { GraphQLRequest.read(request) }

    /// One line per protocol the request speaks: its GraphQL operation, its multipart parts.
    private var protocolLines: [String] {
        var lines: [String] = []
        switch graphQL {
        case .single(let operation) where Self.isRecognisable(operation):
            lines.append("  GraphQL: \(Self.describe(operation))")
        case .batch(let operations):
            lines.append("  GraphQL batch of \(operations.count) operations: " + operations.map(\.summary).joined(separator: ", "))
        case .invalid(let reason):
            lines.append("  GraphQL: an invalid request: \(reason)")
        default:
            break
        }
        if let contentType = request.value(forHTTPHeaderField: "Content-Type"), MultipartBody.isMultipart(contentType: contentType),
            let body = request.body
        {
            do {
                let multipart = try MultipartBody(body, contentType: contentType)
                lines.append(
                    "  \(multipart.mediaType) parts: " + (multipart.parts.isEmpty ? "none" : multipart.parts.map(\.summary).joined(separator: ", ")))
            } catch {
                lines.append("  the body claims \(MediaType(contentType).essence) but cannot be read: \(error)")
            }
        }
        return lines
    }

    private func batchLines(_ operations: [GraphQLOperationRequest]) -> [String] {
        var lines: [String] = []
        for (index, operation) in operations.enumerated() {
            let single = request.answering(operation)
            let heading = "Operation \(index + 1) of \(operations.count), \(operation.summary):"
            if let stub = answeringStub(for: single) {
                lines.append("\(heading) answered by \(stub)")
            } else {
                lines.append("\(heading) no stub matches")
                var report = UnmatchedReport(request: single, stubs: stubs)
                report.maximumCandidates = maximumCandidates
                lines += report.closestStubLines.map { "  " + $0 }
            }
        }
        return lines
    }

    /// The stub that would answer `single`, newest first, as the registry looks it up.
    private func answeringStub(for single: StubRequest) -> StubDescriptor? {
        stubs.reversed().first { $0.matcher.problems.isEmpty && !$0.isUsedUp && $0.matcher.matches(single) }
    }

    /// Whether `operation` is recognisably GraphQL (a `?query=tea` search parameter is not).
    private static func isRecognisable(_ operation: GraphQLOperationRequest) -> Bool {
        if operation.persistedQueryHash != nil { return true }
        if case .unknown = operation.name { return false }
        return true
    }

    private static func describe(_ operation: GraphQLOperationRequest) -> String {
        var text = operation.summary
        if let hash = operation.persistedQueryHash, operation.document == nil { text += " (sha256Hash \(hash.prefix(12))…)" }
        if let variables = operation.variables, !variables.isEmpty { text += ", variables \(JSONValue.object(variables))" }
        return text
    }

    // MARK: Snippets

    /// The GraphQL parameters of a GET, which the GraphQL matchers replace in a snippet.
    private static let graphQLParameters: Set<String> = ["query", "operationName", "variables", "extensions"]

    /// A query parameter that `scrubbing` hides is written `nil` (present, any value): its value
    /// would print as the placeholder, and a stub expecting the placeholder never matches.
    static func snippet(for request: StubRequest, scrubbing: Scrubbing = .default) -> String {
        var parts = ["isMethod\(methodSuffix(request.method))"]
        var operation: GraphQLOperationRequest?
        if case .single(let single) = GraphQLRequest.read(request), isRecognisable(single) { operation = single }
        if let url = request.url {
            if let host = url.host { parts.append("isHost(\(literal(host)))") }
            parts.append("isPath(\(literal(pathOf(url))))")
            let items = request.queryItems.filter { operation == nil || !graphQLParameters.contains($0.name) }
            if !items.isEmpty {
                let pairs = items.map { item in
                    let value = scrubbing.scrubsParameter(item.name) ? nil : item.value
                    return "\(literal(item.name)): \(value.map(literal) ?? "nil")"
                }
                parts.append("containsQueryParams([\(pairs.joined(separator: ", "))])")
            }
        }
        var response = "StubResponse(data: Data(), statusCode: 200)"
        if let operation {
            if let name = operation.resolvedName {
                parts.append("isGraphQLOperation(\(literal(name)))")
            } else if let document = operation.document {
                parts.append("isGraphQLQuery(containing: \(literal(documentExcerpt(scrubbing.graphQLTextBeforeFirstSecret(document)))))")
            }
            if let variables = operation.variables, !variables.isEmpty {
                parts.append("hasGraphQLVariables(\(swiftLiteral(.object(variables))))")
            }
            response = "StubResponse(graphQLData: [:])"
        } else if let contentType = request.value(forHTTPHeaderField: "Content-Type"), MultipartBody.isMultipart(contentType: contentType),
            let body = request.body, let multipart = try? MultipartBody(body, contentType: contentType)
        {
            for part in multipart.parts.prefix(5) {
                guard let name = part.name else { continue }
                var arguments = ["named: \(literal(name))"]
                if let filename = part.filename {
                    arguments.append("filename: \(literal(filename))")
                    if let type = part.contentType { arguments.append("contentType: \(literal(type))") }
                }
                parts.append("hasMultipartPart(\(arguments.joined(separator: ", ")))")
            }
        } else if let body = request.body, !body.isEmpty, body.count <= ReportText.lineLimit, let json = try? JSONValue(data: body),
            case .object = json
        {
            // A larger body would not fit the report: a stub can match part of it with
            // hasJSONBody(containing:).
            parts.append("hasJSONBody(\(swiftLiteral(json)))")
        }
        return """
            registry.stub(\(parts.joined(separator: " && "))) { _ in
                \(response)
            }
            """
    }

    /// The start of an anonymous operation's document, token by token, short enough to read.
    private static func documentExcerpt(_ document: String) -> String {
        var excerpt = ""
        for token in GraphQLLexer.tokenTexts(document) {
            if excerpt.count + token.count > 60 { break }
            excerpt += excerpt.isEmpty ? token : " " + token
        }
        return excerpt
    }

    private static func methodSuffix(_ method: String) -> String {
        let known = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        return known.contains(method) ? "(.\(method.lowercased()))" : "(\(literal(method)))"
    }
}

/// A Swift string literal for `text`, escaped.
func literal(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        default:
            if scalar.value < 0x20 { escaped += "\\u{\(String(scalar.value, radix: 16))}" } else { escaped.unicodeScalars.append(scalar) }
        }
    }
    return "\"\(escaped)\""
}

/// A Swift literal for a JSON value, as `hasJSONBody` accepts it.
func swiftLiteral(_ value: JSONValue) -> String {
    switch value {
    case .null: return "NSNull()"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number):
        if number.rounded() == number, abs(number) < 9.0e15 { return String(Int(number)) }
        return String(number)
    case .integer(let number): return String(number)
    case .string(let text): return literal(text)
    case .array(let values):
        return "[" + values.map(swiftLiteral).joined(separator: ", ") + "] as [Any]"
    case .object(let members):
        if members.isEmpty { return "[:] as [String: Any]" }
        let pairs = members.keys.sorted().map { "\(literal($0)): \(swiftLiteral(members[$0]!))" }
        return "[" + pairs.joined(separator: ", ") + "] as [String: Any]"
    }
}
