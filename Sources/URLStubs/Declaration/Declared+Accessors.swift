import Foundation

// What a stub and a matcher made in code say as data.

extension RequestMatcher {
    /// What the matcher accepts, as data: set by every matcher function that data can say
    /// (``isHost(_:)``, ``isPath(_:)``, ``containsQueryParams(_:)``, …) and kept through `&&`,
    /// `||` and `!`; `nil` for a matcher built from a closure.
    public var pattern: RequestPattern? { declaredPattern }
}

extension StubDescriptor {
    /// The stub as data: the declaration it was registered from, or one made from its
    /// matcher's ``RequestMatcher/pattern`` and its constant response; `nil` when a closure
    /// decides either (a closure matcher, a response built per request). A sequence of
    /// responses is the first ``StubDeclaration/response`` and the
    /// ``StubDeclaration/followingResponses``.
    ///
    /// ```swift
    /// let users = registry.stub(.get, "https://api.example.com/users", json: ["users": []])
    /// let json = try JSONEncoder().encode(users.declaration)   // the same stub, as a file
    /// ```
    public var declaration: StubDeclaration? {
        if let origin { return origin }
        guard let pattern = matcher.pattern, case let responses = answer.knownResponses, !responses.isEmpty else { return nil }
        let definitions = responses.compactMap(\.definition)
        guard definitions.count == responses.count else { return nil }
        return StubDeclaration(
            name: name, request: pattern, response: definitions[0], followingResponses: Array(definitions.dropFirst()), times: maxActivations,
            source: StubDeclaration.Source(file: location.fileID, line: location.line))
    }
}
