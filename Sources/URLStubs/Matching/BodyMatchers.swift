import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The matchers of a request's body: exact bytes, JSON, form fields.

/// Accepts requests whose body is exactly `body`.
public func hasBody(_ body: Data) -> RequestMatcher {
    let text = String(data: body, encoding: .utf8)
    let pattern = RequestPattern(body: [text.map { BodyPattern.equalTo($0) } ?? .binaryEqualTo(body)])
    return bodyMatcher("body is \(describeBody(body))", keys: MatchKeys(body: body)) { actual in
        actual == body ? nil : "expected body \(describeBody(body)), got \(describeBody(actual))"
    }.described(by: pattern)
}

/// Accepts requests whose JSON body equals `json` (key order and number spelling ignored).
/// A body that is not JSON is refused with the parse error as the reason.
public func hasJSONBody(_ json: Any) -> RequestMatcher {
    guard let expected = try? JSONValue(any: json) else {
        return .invalid("JSON body", problem: "hasJSONBody was given a value that is not JSON: \(json)")
    }
    return bodyMatcher("JSON body \(expected)", keys: MatchKeys(jsonBody: expected), pattern: RequestPattern(body: [.json(expected)])) { actual in
        guard let actual, !actual.isEmpty else { return "expected JSON body \(expected), got no body" }
        guard let got = try? JSONValue(data: actual) else {
            return "expected JSON body \(expected), got \(JSONValue.unreadable(actual, as: "a body")): \(describeBody(actual))"
        }
        let diff = expected.differenceLines(from: got)
        return diff.isEmpty ? nil : "JSON body differs: " + diff.joined(separator: "; ")
    }
}

/// Accepts `application/x-www-form-urlencoded` bodies holding every listed field (other fields
/// may be present); a `nil` value means "present, whatever its value".
public func hasFormBody(_ fields: [String: String?]) -> RequestMatcher {
    let sorted = fields.sorted { $0.key < $1.key }
    let words = sorted.map { name, value in value.map { "\(name)=\($0)" } ?? name }.joined(separator: "&")
    return bodyMatcher("form body contains \(words)") { actual in
        let form = parseFormBody(actual ?? Data())
        var failures: [String] = []
        for (name, expected) in sorted {
            guard let values = form[name] else { failures.append("missing form field \"\(name)\""); continue }
            if let expected, !values.contains(expected) {
                failures.append("expected form field \"\(name)\" = \"\(expected)\", got \(values.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
        }
        return failures.isEmpty ? nil : failures.joined(separator: "; ")
    }
}

func parseFormBody(_ body: Data) -> [String: [String]] {
    let text = String(decoding: body, as: UTF8.self)
    var fields: [String: [String]] = [:]
    for pair in text.split(separator: "&") where !pair.isEmpty {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ part: Substring) -> String {
            String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
        }
        fields[decode(parts[0]), default: []].append(parts.count > 1 ? decode(parts[1]) : "")
    }
    return fields
}

/// Body matchers answer "maybe" while the body is not visible (an upload task being claimed
/// on Linux, or any upload task on Apple platforms): the registry then decides again once the
/// body is known, or fails the request with ``StubError/requestBodyUnavailable(stub:url:)``.
func bodyMatcher(
    _ description: String, keys: MatchKeys = MatchKeys(), pattern: RequestPattern? = nil,
    _ check: @escaping @Sendable (Data?) -> String?
) -> RequestMatcher {
    RequestMatcher(description: description, keys: keys, pattern: pattern) { request in
        guard request.isBodyKnown else { return .bodyUnknown }
        return check(request.body).map(MatchResult.failed) ?? .matched
    }
}
