import Foundation

extension StubRegistry {
    /// When `true`, near-miss reports and ``verify(includePassedThrough:)`` also print each
    /// closest stub that data can say (``StubDescriptor/declaration``) as its JSON form, on one
    /// line, and as the Swift that makes it (``StubDeclaration/swiftSource``). Off by default,
    /// so a report stays a few lines.
    ///
    /// ```swift
    /// registry.showsDeclarationsInReports = true
    /// ```
    ///
    /// A candidate then reads:
    ///
    /// ```
    ///   1. "user 1" (Stubs/users.json)
    ///      - expected path "/users/1", got "/users/2"
    ///      as JSON: {"request":{"path":{"equalTo":"/users/1"}},"response":{"status":200},"version":1}
    ///      as Swift: StubDeclaration(
    ///          request: RequestPattern(path: .equalTo("/users/1")),
    ///          response: ResponseDefinition())
    /// ```
    ///
    /// The registry's ``scrubbing`` hides secrets in both forms as in the rest of the report.
    public var showsDeclarationsInReports: Bool {
        get { snapshot().showsDeclarations }
        set { change { $0.showsDeclarations = newValue } }
    }
}
