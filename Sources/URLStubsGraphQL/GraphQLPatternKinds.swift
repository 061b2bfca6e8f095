import Foundation
import URLStubs

/// The GraphQL matchers as kinds of the declarative vocabulary, so declarations can say them:
/// `{"kind": "graphQLOperation", "value": "GetUser"}`, `{"kind": "graphQLVariables", "value":
/// {"id": 1}}`, `{"kind": "graphQLQueryContaining", "value": "user(id:"}`, and
/// `{"kind": "graphQLVariablesSpelled", "value": {"id": "7"}}` (each variable compared by its
/// text, as a scenario folder's file name writes it: `"7"` accepts the number 7 and the string "7").
///
/// Using any GraphQL matcher registers them. A process that reads declarations naming them
/// before it has, calls ``register()`` first:
///
/// ```swift
/// GraphQLPatternKinds.register()
/// let declarations = try StubDeclaration.read(from: data, source: "graphql.json")
/// ```
public enum GraphQLPatternKinds {
    /// ``isGraphQLOperation(_:)``: the value is the operation's name.
    static let operation = "graphQLOperation"
    /// ``hasGraphQLVariables(_:)``: the value is an object of variables.
    static let variables = "graphQLVariables"
    /// ``isGraphQLQuery(containing:)``: the value is the text.
    static let queryContaining = "graphQLQueryContaining"
    /// Variables compared by their text: the value is an object of strings.
    static let variablesSpelled = "graphQLVariablesSpelled"

    /// Registers the GraphQL kinds (and the GraphQL request strategy) for every registry of the
    /// process; later calls are free.
    public static func register() { GraphQLStrategy.register() }

    static func registerAll() {
        RequestPatternKinds.register(
            Kind(name: operation) { value in
                guard case .string(let name) = value else { return .invalid(operation, problem: "expected the operation's name as a string") }
                return isGraphQLOperation(name)
            })
        RequestPatternKinds.register(
            Kind(name: variables) { value in
                guard case .object(let members) = value else { return .invalid(variables, problem: "expected an object of variables") }
                return hasGraphQLVariables(members.mapValues { $0 as Any })
            })
        RequestPatternKinds.register(
            Kind(name: queryContaining) { value in
                guard case .string(let text) = value else { return .invalid(queryContaining, problem: "expected the text as a string") }
                return isGraphQLQuery(containing: text)
            })
        RequestPatternKinds.register(
            Kind(name: variablesSpelled) { value in
                guard case .object(let members) = value else { return .invalid(variablesSpelled, problem: "expected an object of strings") }
                var spelled: [String: String] = [:]
                for (name, member) in members {
                    guard case .string(let text) = member else {
                        return .invalid(variablesSpelled, problem: "expected the variable \"\(name)\" as a string, found \(member)")
                    }
                    spelled[name] = text
                }
                return graphQLVariablesSpelled(spelled)
            })
    }

    private struct Kind: RequestPatternKind {
        let name: String
        let make: @Sendable (JSONValue) -> RequestMatcher
        func matcher(for value: JSONValue) -> RequestMatcher { make(value) }
    }
}
