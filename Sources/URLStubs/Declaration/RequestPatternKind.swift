import Foundation

/// A kind of request pattern a library adds to the declarative vocabulary: a name used in
/// ``BodyPattern/kind(_:_:)`` and the matcher its value stands for.
///
/// This is the engine's one extension point for patterns: URLStubsGraphQL registers its
/// operation patterns and URLStubsMultipart its part patterns here, so a declaration naming
/// them can be read, sent and matched like any other.
///
/// ```swift
/// struct TenantKind: RequestPatternKind {
///     let name = "tenant"
///     func matcher(for value: JSONValue) -> RequestMatcher {
///         guard case .string(let tenant) = value else { return .invalid("tenant", problem: "expected a string") }
///         return hasHeaderNamed("X-Tenant", value: tenant)
///     }
/// }
/// RequestPatternKinds.register(TenantKind())
/// ```
public protocol RequestPatternKind: Sendable {
    /// The kind's name in declarations (`"graphQLOperation"`).
    var name: String { get }
    /// The matcher for one value of the kind; a value it cannot use gives a matcher whose
    /// ``RequestMatcher/problems`` say why.
    func matcher(for value: JSONValue) -> RequestMatcher
    /// The requests one value accepts, said with the built-in patterns as closely as they can
    /// say them, for a writer of another tool's format (a WireMock mapping); `nil` when they
    /// cannot. The declaration's other fields (method, path, query) still apply beside it.
    func plainPattern(for value: JSONValue) -> RequestPattern?
}

extension RequestPatternKind {
    /// `nil`: the kind's requests have no plain spelling.
    public func plainPattern(for value: JSONValue) -> RequestPattern? { nil }
}

/// The pattern kinds registered in this process.
public enum RequestPatternKinds {
    private static let kinds = Locked<[String: any RequestPatternKind]>([:])

    /// Adds `kind`, replacing one of the same name.
    public static func register(_ kind: some RequestPatternKind) {
        kinds.withLock { $0[kind.name] = kind }
    }

    /// The kind named `name`, if registered.
    package static func kind(named name: String) -> (any RequestPatternKind)? {
        kinds.withLock { $0[name] }
    }

    /// The registered names, sorted, for errors.
    static var names: [String] {
        kinds.withLock { $0.keys.sorted() }
    }
}

extension RequestMatcher {
    /// A matcher that reports a construction problem and never accepts a request: what a
    /// ``RequestPatternKind`` returns for a value it cannot use.
    public static func invalid(_ description: String, problem: String) -> RequestMatcher {
        RequestMatcher(description: description, problems: [problem]) { _ in .failed(problem) }
    }
}
