import Foundation
import URLStubs

/// The JSON forms the link sends, all the engine's: a whole `StubDeclaration`, and a request
/// pattern or a response definition as they stand inside one (its `request` and `response`
/// members). Both sides read them with the engine's strict reader, so an unknown member, a
/// pattern kind the app has not registered or a status of 600 is refused naming the JSON path.
package enum DeclarationForms {
    /// The JSON of `pattern`, as a declaration's `request` member.
    package static func json(of pattern: RequestPattern) -> JSONValue {
        member("request", of: StubDeclaration(request: pattern, response: ResponseDefinition()).json)
    }

    /// The JSON of `response`, as a declaration's `response` member.
    package static func json(of response: ResponseDefinition) -> JSONValue {
        member("response", of: StubDeclaration(response: response).json)
    }

    /// Reads a declaration, naming `source` and the kind to register when it names one the
    /// process has not registered.
    package static func declaration(from json: JSONValue, source: String) throws -> StubDeclaration {
        do {
            return try StubDeclaration(json: json, source: source)
        } catch let error as StubError {
            throw WireProtocolError(withRegistrationHint(error.description))
        }
    }

    /// Reads a request pattern (a declaration's `request` member).
    package static func pattern(from json: JSONValue, source: String) throws -> RequestPattern {
        try declaration(from: .object(["request": json, "response": .object([:])]), source: source).request
    }

    /// Reads a response definition (a declaration's `response` member).
    package static func response(from json: JSONValue, source: String) throws -> ResponseDefinition {
        try declaration(from: .object(["response": json]), source: source).response
    }

    /// `problem`, with what the app calls at launch when it names a pattern kind of a library
    /// the app has not registered: the app links the library, the test cannot do it for it.
    package static func withRegistrationHint(_ problem: String) -> String {
        let libraries = [
            ("graphQL", "import URLStubsGraphQL and call GraphQLPatternKinds.register()"),
            ("multipart", "import URLStubsMultipart and call MultipartPatternKinds.register()"),
        ]
        guard problem.contains("no library registered the pattern kind") else { return problem }
        for (prefix, call) in libraries where problem.contains("pattern kind \"\(prefix)") {
            return problem + ". In the app, \(call) before TestRunnerLink.connectIfLaunchedByTest"
        }
        return problem
    }

    private static func member(_ name: String, of json: JSONValue) -> JSONValue {
        guard case .object(let members) = json, let value = members[name] else { return .object([:]) }
        return value
    }
}
