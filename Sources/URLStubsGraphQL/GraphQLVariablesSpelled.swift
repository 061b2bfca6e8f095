import Foundation
import URLStubs

/// Variables written as text (a scenario folder's `GetUser[id=7].json`): each compares by its
/// text, so `id=7` accepts the number 7 and the string "7". The matcher of the
/// `graphQLVariablesSpelled` pattern kind (``GraphQLPatternKinds``).
func graphQLVariablesSpelled(_ variables: [String: String]) -> RequestMatcher {
    let sorted = variables.sorted { $0.key < $1.key }
    let words = sorted.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    return RequestMatcher(description: "GraphQL variables \(words)") { request -> MatcherVerdict in
        let actual: [String: JSONValue]
        switch GraphQLVariablesReading(request) {
        case .bodyUnknown: return .bodyUnknown
        case .variables(let variables): actual = variables
        case .notOneOperation: return .failed("expected GraphQL variables \(words), got a request that is not one GraphQL operation")
        }
        var reasons: [String] = []
        for (name, text) in sorted {
            guard let value = actual[name] else {
                reasons.append("$.variables.\(name): missing, expected \(text)")
                continue
            }
            let spelled: String
            if case .string(let string) = value { spelled = string } else { spelled = value.description }
            if spelled != text { reasons.append("$.variables.\(name): expected \(text), got \(value)") }
        }
        return reasons.isEmpty ? .matched : .failed(reasons.joined(separator: "; "))
    }
}
