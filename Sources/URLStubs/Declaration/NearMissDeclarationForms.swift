import Foundation

/// How a near-miss report also prints each closest stub that data can say
/// (``StubDescriptor/declaration``): as its JSON form, as the Swift that makes it, or both.
/// Off by default, so a report stays a few lines.
///
/// ```swift
/// registry.nearMissDeclarationForms = [.json, .swift]
/// ```
///
/// A candidate then reads:
///
/// ```
///   1. stub "user 1" (Stubs/users.json)
///      - path: expected "/users/1", got "/users/2"
///      as JSON: {"request":{"path":{"equalTo":"/users/1"}},"response":{"status":200},"version":1}
///      as Swift: StubDeclaration(
///          request: RequestPattern(path: .equalTo("/users/1")),
///          response: ResponseDefinition())
/// ```
///
/// The registry's ``StubRegistry/scrubbing`` hides secrets in both forms as in the rest of the
/// report.
public struct NearMissDeclarationForms: OptionSet, Sendable, Hashable {
    /// The forms as bits.
    public let rawValue: Int

    /// A form set from its raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The declaration's JSON form (``StubDeclaration/json``), on one line.
    public static let json = NearMissDeclarationForms(rawValue: 1 << 0)
    /// The Swift that makes the declaration (``StubDeclaration/swiftSource``).
    public static let swift = NearMissDeclarationForms(rawValue: 1 << 1)
}

extension StubRegistry {
    /// How near-miss reports and ``verify(includePassedThrough:)`` print each closest stub
    /// that data can say; none by default (``NearMissDeclarationForms``).
    public var nearMissDeclarationForms: NearMissDeclarationForms {
        get { snapshot().nearMissForms }
        set { change { $0.nearMissForms = newValue } }
    }
}
