import Foundation

/// OHHTTPStubs' spelling of ``hasJSONBody(_:)``, kept so a search-and-replace migration
/// compiles; the deprecation message names the URLStubs spelling.
@available(*, deprecated, renamed: "hasJSONBody(_:)", message: "URLStubs spells it hasJSONBody(_:), JSON in capitals")
public func hasJsonBody(_ json: Any) -> RequestMatcher {
    hasJSONBody(json)
}
