import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A kind of exact value that a request strategy reads from requests (an operation name), so
/// the stub index can file stubs by it as it files them by method or body.
///
/// The index trusts ``values`` the way it trusts its own readers: a stub filed under a value
/// that a request's ``values`` does not list is never offered that request, so `values` must
/// list every value a matcher keyed by this kind could accept.
///
/// Two kinds are the same kind when their names are equal; give each kind one name.
package struct IndexKind: Sendable, Hashable {
    /// Tells kinds apart, and names the kind in diagnostics.
    package let name: String
    /// The request's values of this kind (several, one, or none: `[]`), or `nil` when they
    /// cannot be known yet (a body not visible while the request is being claimed): every
    /// stub of this kind is then a candidate. It may cache what it parsed in the request.
    let values: @Sendable (inout StubRequest) -> [String]?

    /// A kind named `name` whose values `values` reads from a request.
    package init(_ name: String, values: @escaping @Sendable (inout StubRequest) -> [String]?) {
        self.name = name
        self.values = values
    }

    /// Whether both kinds have the same name.
    package static func == (lhs: IndexKind, rhs: IndexKind) -> Bool { lhs.name == rhs.name }
    /// Hashes the name, the kind's identity.
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// The exact value of an ``IndexKind`` that a matcher requires: the stub index files the stub
/// under it once the stub's bucket outgrows a scan.
package struct IndexKey: Sendable, Hashable {
    /// What the value is a value of.
    package let kind: IndexKind
    /// The value the matcher requires.
    package let value: String

    /// The key that requires `value` of `kind`.
    package init(_ kind: IndexKind, _ value: String) {
        self.kind = kind
        self.value = value
    }
}
