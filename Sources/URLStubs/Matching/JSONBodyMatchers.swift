import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// JSON bodies that are only partly known (a client adds fields the test does not care about)
// or partly volatile (timestamps, nonces, generated ids).

/// Accepts requests whose JSON body contains `subset`: every key `subset` lists is present
/// with a value that contains the expected one, recursively; other keys may be present.
///
/// ```swift
/// hasJSONBody(containing: ["user": ["name": "Ada"]])                   // ignores other fields
/// hasJSONBody(containing: ["tags": ["b", "a"]], arrays: .unordered)  // ["a", "b", "c"] passes
/// ```
///
/// - Parameters:
///   - subset: `JSONSerialization` values (`[String: Any]`, arrays, strings, numbers, `NSNull()`).
///   - arrays: ``JSONArrayComparison/byPosition`` (the default: same length, element by element)
///     or ``JSONArrayComparison/unordered`` (each expected element in a different actual one,
///     in any order, more allowed).
///
/// A mismatch lists each difference by JSON path: `$.user.name: expected "Ada", got "Bob"`.
///
/// - Important: Scalars compare by value: `1` matches `1.0`, but `"1"` does not match `1` and
///   `true` does not match `1`.
public func hasJSONBody(containing subset: Any, arrays: JSONArrayComparison = .byPosition) -> RequestMatcher {
    guard let expected = try? JSONValue(any: subset) else {
        return .invalid("JSON body containing", problem: "hasJSONBody(containing:) was given a value that is not JSON: \(subset)")
    }
    let order = arrays == .unordered ? ", arrays in any order" : ""
    let pattern = RequestPattern(body: [.json(expected, ignoreArrayOrder: arrays == .unordered, ignoreExtraElements: true)])
    return bodyMatcher("JSON body containing \(expected)\(order)", pattern: pattern) { actual in
        switch parsedJSONBody(actual, expected: "a JSON body containing \(expected)") {
        case .failure(let reason): return reason.description
        case .success(let got):
            let failures = expected.containmentFailures(in: got, arrays: arrays)
            return failures.isEmpty ? nil : "JSON body differs: " + failures.joined(separator: "; ")
        }
    }
}

/// Accepts requests whose JSON body equals `json` once the members and elements named by
/// `paths` are left out of both, so fields that change on every run do not count.
///
/// ```swift
/// hasJSONBody(["event": "login", "timestamp": 0, "items": [["id": 0, "sku": "A"]]],
///             ignoring: ["$.timestamp", "$.items[*].id"])
/// ```
///
/// Paths: `$.name` or `$['name']` a member, `$.list[2]` an element, `[*]` or `.*` every element
/// or member, `$..name` a member at any depth. An ignored member may also be missing on either
/// side; an ignored array element keeps its position.
///
/// - Important: An invalid path does not silently ignore nothing: every request that reaches
///   the stub fails with ``StubError/invalidMatcher(stub:problems:)`` naming the path and column.
public func hasJSONBody(_ json: Any, ignoring paths: [String]) -> RequestMatcher {
    let volatile = VolatileFields(jsonPaths: paths)
    let description = "JSON body \(String(describing: (try? JSONValue(any: json)) ?? .null)) ignoring \(paths.joined(separator: ", "))"
    guard volatile.problems.isEmpty else {
        return .invalid(description, problem: volatile.problems.joined(separator: "; "))
    }
    guard let expected = try? JSONValue(any: json) else {
        return .invalid("JSON body", problem: "hasJSONBody(_:ignoring:) was given a value that is not JSON: \(json)")
    }
    let comparable = volatile.removingPaths(from: expected)
    return bodyMatcher(description) { actual in
        switch parsedJSONBody(actual, expected: "JSON body \(expected)") {
        case .failure(let reason): return reason.description
        case .success(let got):
            let diff = comparable.differenceLines(from: volatile.removingPaths(from: got))
            return diff.isEmpty ? nil : "JSON body differs: " + diff.joined(separator: "; ")
        }
    }
}

private struct BodyReason: Error, CustomStringConvertible {
    let description: String
}

private func parsedJSONBody(_ body: Data?, expected: String) -> Result<JSONValue, BodyReason> {
    guard let body, !body.isEmpty else { return .failure(BodyReason(description: "expected \(expected), got no body")) }
    guard let json = try? JSONValue(data: body) else {
        return .failure(BodyReason(description: "expected \(expected), got \(JSONValue.unreadable(body, as: "a body")): \(describeBody(body))"))
    }
    return .success(json)
}
