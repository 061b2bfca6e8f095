import Foundation

extension StubResponse {
    /// The seconds before the response head, as `requestTime(_:responseTime:)` sets them: read
    /// and changed by add-ons that add to a response's wait (a network profile's latency, a
    /// scenario manifest's delay).
    package var requestDelay: TimeInterval {
        get { pacing.requestTime }
        set { pacing.requestTime = newValue }
    }
}
