import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The explanation printed when a request matches no stub: the closest stubs, ranked, the
/// reasons each refused, and a stub declaration that would have matched.
struct UnmatchedReport {
    let request: StubRequest
    let stubs: [StubDescriptor]
    var maximumCandidates = 3

    var text: String {
        var lines = ["URLStubs: no stub matches \(request)"]
        if let body = request.body, !body.isEmpty {
            lines.append("  body: \(describeBody(body))")
        }
        let ranked = rankedCandidates
        if ranked.isEmpty {
            lines.append("The registry has no stubs.")
        } else {
            lines.append("Closest stubs:")
            for (position, candidate) in ranked.prefix(maximumCandidates).enumerated() {
                lines.append("  \(position + 1). \(candidate.stub)")
                for reason in candidate.reasons {
                    lines.append("     - \(reason)")
                }
            }
            if ranked.count > maximumCandidates {
                lines.append("  (\(ranked.count - maximumCandidates) more stubs matched less)")
            }
        }
        lines.append("To stub this request, add:")
        lines.append(snippet.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
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
            if result.isMatch, stub.isExhausted {
                reasons = ["used up: it may answer \(stub.maxActivations ?? 0) time(s) and already did"]
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

    /// Swift that stubs exactly this request, ready to paste into a test.
    var snippet: String {
        var parts = ["isMethod\(methodSuffix)"]
        if let url = request.url {
            if let host = url.host { parts.append("isHost(\(literal(host)))") }
            parts.append("isPath(\(literal(pathOf(url))))")
            let items = request.queryItems
            if !items.isEmpty {
                let pairs = items.map { item in "\(literal(item.name)): \(item.value.map(literal) ?? "nil")" }
                parts.append("containsQueryParams([\(pairs.joined(separator: ", "))])")
            }
        }
        if let body = request.body, !body.isEmpty, let json = try? JSONValue(data: body), case .object = json {
            parts.append("hasJSONBody(\(swiftLiteral(json)))")
        }
        return """
        registry.stub(\(parts.joined(separator: " && "))) { _ in
            StubResponse(data: Data(), statusCode: 200)
        }
        """
    }

    private var methodSuffix: String {
        let known = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]
        return known.contains(request.method) ? "\(request.method)()" : "(\(literal(request.method)))"
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
