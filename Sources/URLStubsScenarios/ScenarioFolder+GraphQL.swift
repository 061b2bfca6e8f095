import Foundation
import URLStubs

/// The scenario folder convention for GraphQL: inside a folder named `graphql`, a file named
/// after an operation answers that operation at the folder's path (see ``Scenario/declarations(inFolder:)``).
///
/// ```text
/// api/graphql/GetUser.json          ← query GetUser at /api/graphql, the file is the body
/// api/graphql/GetUser[id=7].json    ← the same operation when its variable id is 7
/// api/graphql/Checkout.response     ← mutation Checkout, a whole HTTP message
/// ```
///
/// Such a file is a declaration whose body patterns are URLStubsGraphQL's pattern kinds
/// (`graphQLOperation`, `graphQLVariablesSpelled`): this library reads them as data. Answering
/// them needs the kinds registered (`GraphQLPatternKinds.register()`, or any use of a GraphQL
/// matcher); until then a request that reaches such a stub fails with
/// `StubError.invalidMatcher(stub:problems:)` naming the kind and what to call, and
/// `registry.verify()` lists the stub.
extension Scenario {
    /// A GraphQL operation file: `graphql/GetUser.json`, `graphql/GetUser[id=7].response`.
    static func makeGraphQLDeclaration(
        _ relative: String, in folder: URL, operation: String, variables: [String: String?],
        segments: [String], manifest: Manifest, problems: inout [String]
    ) -> StubDeclaration? {
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
        guard let response = makeDefinition(relative, at: url, manifest: manifest, problems: &problems) else { return nil }
        let path = "/" + segments.joined(separator: "/")
        var body: [BodyPattern] = [.kind("graphQLOperation", .string(operation))]
        if !variables.isEmpty {
            body.append(.kind("graphQLVariablesSpelled", .object(variables.compactMapValues { $0.map(JSONValue.string) })))
        }
        return StubDeclaration(
            name: "\(folder.lastPathComponent)/\(relative) (GraphQL \(operation) at \(path))",
            request: RequestPattern(host: manifest.host.map { .equalTo($0) }, path: .equalTo(path), body: body), response: response,
            source: StubDeclaration.Source(file: url.path))
    }
}
