import Foundation

extension StubSpec {
    /// A stub to add later with `StubRegistry.add(_:)`, for an add-on (the memberwise
    /// initializer is internal): `responder` gets the request and how
    /// many times the stub answered before (HAR replay and scenarios build these).
    package init(
        _ matcher: RequestMatcher, name: String?, times: Int?, location: StubLocation,
        responder: @escaping @Sendable (StubRequest, Int) throws -> StubResponse
    ) {
        self.matcher = matcher
        self.name = name
        self.times = times
        self.location = location
        self.responder = responder
    }
}
