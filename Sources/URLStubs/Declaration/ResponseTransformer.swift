import Foundation

/// A way of answering that a library adds to the declarative vocabulary: a name used in
/// ``ResponseDefinition/transformer`` and the responses its value stands for, built per
/// request (a response template, a delay drawn from a distribution).
///
/// The engine's one extension point for responses, as ``RequestPatternKind`` is for
/// patterns. URLStubsWireMock registers its response templates here.
///
/// ```swift
/// struct EchoPath: ResponseTransformer {
///     let name = "echoPath"
///     func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse {
///         { request in StubResponse(string: request.url?.path ?? "", statusCode: base.status) }
///     }
/// }
/// ResponseTransformers.register(EchoPath())
/// ```
public protocol ResponseTransformer: Sendable {
    /// The transformer's name in declarations (`"wireMockTemplate"`).
    var name: String { get }
    /// Prepares `value` once, when the declaration is registered (parsing a template), and
    /// returns what answers each request; `base` is the rest of the definition.
    /// - Throws: Why `value` cannot be used; the registration fails naming it.
    func responder(for value: JSONValue, base: ResponseDefinition) throws -> @Sendable (StubRequest) throws -> StubResponse
}

/// The response transformers registered in this process.
public enum ResponseTransformers {
    private static let transformers = Locked<[String: any ResponseTransformer]>([:])

    /// Adds `transformer`, replacing one of the same name.
    public static func register(_ transformer: some ResponseTransformer) {
        transformers.withLock { $0[transformer.name] = transformer }
    }

    static func transformer(named name: String) -> (any ResponseTransformer)? {
        transformers.withLock { $0[name] }
    }

    static var names: [String] {
        transformers.withLock { $0.keys.sorted() }
    }
}
