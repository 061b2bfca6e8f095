import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubsGraphQL
import URLStubs

/// The scenario folder convention for GraphQL: inside a folder named `graphql`, a file named
/// after an operation answers that operation at the folder's path (see ``Scenario/folder(_:name:fileID:filePath:line:)``).
///
/// ```text
/// api/graphql/GetUser.json          ← query GetUser at /api/graphql, the file is the body
/// api/graphql/GetUser[id=7].json    ← the same operation when its variable id is 7
/// api/graphql/Checkout.response     ← mutation Checkout, a whole HTTP message
/// ```
extension Scenario {
    /// A GraphQL operation file: `graphql/GetUser.json`, `graphql/GetUser[id=7].response`.
    static func makeGraphQLSpec(
        _ relative: String, in folder: URL, operation: String, variables: [String: String?],
        segments: [String], manifest: Manifest, location: StubLocation,
        problems: inout [String]
    ) -> StubSpec? {
        let url = folder.appendingPathComponent(relative)
        guard ["json", "response"].contains(url.pathExtension.lowercased()) else {
            problems.append("\(relative): a GraphQL operation file is named OperationName.json or OperationName.response")
            return nil
        }
        guard let first = operation.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
            operation.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) })
        else {
            problems.append("\(relative): \"\(operation)\" is not a GraphQL operation name (letters, digits and _, not starting with a digit)")
            return nil
        }
        if let unset = variables.first(where: { $0.value == nil }) {
            problems.append("\(relative): the variable \"\(unset.key)\" needs a value (OperationName[\(unset.key)=value].json)")
            return nil
        }
        guard let response = makeResponse(relative, at: url, manifest: manifest, problems: &problems) else { return nil }
        let path = "/" + segments.joined(separator: "/")
        var matcher = isPath(path) && isGraphQLOperation(operation)
        if let host = manifest.host { matcher = isHost(host) && matcher }
        if !variables.isEmpty { matcher = matcher && graphQLVariablesSpelled(variables.compactMapValues { $0 }) }
        let fixed = response
        return StubSpec(
            matcher, name: "\(folder.lastPathComponent)/\(relative) (GraphQL \(operation) at \(path))", times: nil,
            location: location
        ) { _, _ in fixed }
    }

    /// Variables written in a file name: text, so `id=7` accepts the number 7 and the string "7".
    private static func graphQLVariablesSpelled(_ variables: [String: String]) -> RequestMatcher {
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
}
