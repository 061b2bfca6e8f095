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
    /// decides either (a closure matcher, a response built per request), and for a sequence of
    /// several responses, which the vocabulary does not say yet.
    ///
    /// ```swift
    /// let users = registry.stub(.get, "https://api.example.com/users", json: ["users": []])
    /// let json = try JSONEncoder().encode(users.declaration)   // the same stub, as a file
    /// ```
    public var declaration: StubDeclaration? {
        if let origin { return origin }
        guard let pattern = matcher.pattern, let response = answer.onlyResponse, let definition = response.definition else { return nil }
        return StubDeclaration(
            name: name, request: pattern, response: definition, times: maxActivations,
            source: StubDeclaration.Source(file: location.fileID, line: location.line))
    }
}

extension StubAnswer {
    /// The one response every request gets: a constant, or a sequence of one.
    var onlyResponse: StubResponse? {
        switch self {
        case .constant(let response): return response
        case .sequence(let responses) where responses.count == 1: return responses[0]
        case .sequence, .closure: return nil
        }
    }
}
