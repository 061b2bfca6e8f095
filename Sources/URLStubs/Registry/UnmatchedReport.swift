import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The explanation printed when a request matches no stub: the closest stubs, ranked, the
/// reasons each refused, and a stub declaration that would have matched.
///
/// The registered request strategies describe what they read in the request (an operation,
/// parts) and add to the suggested stub; a request a strategy splits (a batch) is described
/// part by part: which stub answers each, and the near misses of those that none does.
struct UnmatchedReport {
    let request: StubRequest
    let stubs: [StubDescriptor]
    /// Read once per report: the strategies registered when it was made.
    var strategies = RequestStrategies.registered
    /// What the text hides: the request's secrets, wherever they appear (its URL, its body, a
    /// matcher's "got" value, the snippet), and what the stubs' matchers expect in the fields
    /// it scrubs (``Scrubbing/expectedSecrets(in:)``).
    var scrubbing = Scrubbing.default
    var maximumCandidates = 3
    /// How a declared candidate is also printed (``StubRegistry/nearMissDeclarationForms``).
    var declarationForms: NearMissDeclarationForms = []

    var text: String {
        let text = unredactedText
        return ReportText.boundingLines(scrubbing.reportRedactor(for: request, text: text).redact(text))
    }

    private var unredactedText: String {
        var lines = ["URLStubs: no stub matches \(request)"]
        if let body = request.body, !body.isEmpty {
            lines.append("  body: \(describeBody(body))")
            if let note = JSONValue.tooDeepBodyNote(body) { lines.append("  \(note)") }
        }
        for strategy in strategies { lines += strategy.reportLines(for: request) }
        if let split = split {
            lines += splitLines(split)
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
            if !declarationForms.isEmpty, let declaration = candidate.stub.declaration {
                if declarationForms.contains(.json) {
                    lines.append("     as JSON: " + String(decoding: declaration.json.serialized(), as: UTF8.self))
                }
                if declarationForms.contains(.swift) {
                    lines.append("     as Swift: " + declaration.swiftSource.replacingOccurrences(of: "\n", with: "\n     "))
                }
            }
        }
        if ranked.count > maximumCandidates {
            lines.append("  (\(ranked.count - maximumCandidates) more stubs matched less)")
        }
        return lines
    }

    /// Swift that stubs exactly this request, ready to paste into a test. For a split request,
    /// one stub per part that no stub answers.
    var snippet: String {
        if let split {
            let missing = split.parts.map(\.request).filter { answeringStub(for: $0) == nil }
            return missing.map { Self.snippet(for: $0, scrubbing: scrubbing, strategies: strategies) }.joined(separator: "\n")
        }
        return Self.snippet(for: request, scrubbing: scrubbing, strategies: strategies)
    }

    // MARK: Split requests

    private var split: RequestSplit? {
        for strategy in strategies {
            if let split = strategy.split(request) { return split }
        }
        return nil
    }

    private func splitLines(_ split: RequestSplit) -> [String] {
        var lines: [String] = []
        for (index, part) in split.parts.enumerated() {
            let heading = "\(split.partNoun) \(index + 1) of \(split.parts.count), \(part.summary):"
            if let stub = answeringStub(for: part.request) {
                lines.append("\(heading) answered by \(stub)")
            } else {
                lines.append("\(heading) no stub matches")
                var report = UnmatchedReport(request: part.request, stubs: stubs)
                report.maximumCandidates = maximumCandidates
                report.declarationForms = declarationForms
                lines += report.closestStubLines.map { "  " + $0 }
            }
        }
        return lines
    }

    /// The stub that would answer `single`, newest first, as the registry looks it up.
    private func answeringStub(for single: StubRequest) -> StubDescriptor? {
        stubs.reversed().first { $0.matcher.problems.isEmpty && !$0.isUsedUp && $0.matcher.matches(single) }
    }

    // MARK: Snippets

    /// A query parameter that `scrubbing` hides is written `nil` (present, any value): its value
    /// would print as the placeholder, and a stub expecting the placeholder never matches.
    /// The first strategy with a suggestion for the request adds its matchers and response.
    static func snippet(for request: StubRequest, scrubbing: Scrubbing = .default, strategies: [any RequestStrategy]) -> String {
        var parts = ["isMethod\(methodSuffix(request.method))"]
        var suggestion: StubSuggestion?
        for strategy in strategies {
            suggestion = strategy.suggestion(for: request, scrubbing: scrubbing)
            if suggestion != nil { break }
        }
        if let url = request.url {
            if let host = url.host { parts.append("isHost(\(literal(host)))") }
            parts.append("isPath(\(literal(pathOf(url))))")
            let covered = suggestion?.coveredQueryParameters ?? []
            let items = request.queryItems.filter { !covered.contains($0.name) }
            if !items.isEmpty {
                let pairs = items.map { item in
                    let value = scrubbing.scrubsParameter(item.name) ? nil : item.value
                    return "\(literal(item.name)): \(value.map(literal) ?? "nil")"
                }
                parts.append("containsQueryParams([\(pairs.joined(separator: ", "))])")
            }
        }
        var response = "StubResponse(data: Data(), statusCode: 200)"
        if let suggestion {
            parts += suggestion.matchers
            if let own = suggestion.response { response = own }
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

    private static func methodSuffix(_ method: String) -> String {
        let known = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        return known.contains(method) ? "(.\(method.lowercased()))" : "(\(literal(method)))"
    }
}

/// A Swift string literal for `text`, escaped.
package func literal(_ text: String) -> String {
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
package func swiftLiteral(_ value: JSONValue) -> String {
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
