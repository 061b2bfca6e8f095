import Foundation

/// How slowly a ``StubResponse`` is sent, said once: the wait before the head, and the pace of
/// the body.
package struct ResponsePacing: Sendable, Equatable {
    /// How the body's bytes are spread out.
    enum BodyPace: Sendable, Equatable {
        /// As fast as the body can be read.
        case unpaced
        /// Spread evenly over this many seconds (the whole body when its length is unknown
        /// arrives once they are over).
        case spread(over: TimeInterval)
        /// At this many bytes per second.
        case speed(bytesPerSecond: Double)
    }

    /// Seconds between the start of the request and the response head.
    package var requestTime: TimeInterval = 0
    var body: BodyPace = .unpaced

    static let none = ResponsePacing()

    /// OHHTTPStubs' single number: seconds to spread the body over, or, when negative, a speed
    /// in KB/s.
    package var responseTime: TimeInterval {
        get {
            switch body {
            case .unpaced: return 0
            case .spread(let seconds): return seconds
            case .speed(let bytesPerSecond): return -bytesPerSecond / 1000
            }
        }
        set {
            if newValue < 0 {
                body = .speed(bytesPerSecond: -newValue * 1000)
            } else if newValue > 0 {
                body = .spread(over: newValue)
            } else {
                body = .unpaced
            }
        }
    }

    /// The bytes per second a body of `length` bytes (`nil`: unknown) is sent at; `nil` when
    /// it is not paced by speed (unpaced, or spread over a time with an unknown length).
    func bytesPerSecond(forLength length: Int?) -> Double? {
        switch body {
        case .unpaced: return nil
        case .speed(let bytesPerSecond): return bytesPerSecond
        case .spread(let seconds):
            guard let length, length > 0 else { return nil }
            return Double(length) / seconds
        }
    }

    /// How long a failure takes after the request time: as long as the response would have
    /// (OHHTTPStubs' timing): the spread time; nothing for a speed.
    var failureDelay: TimeInterval {
        if case .spread(let seconds) = body { return seconds }
        return 0
    }
}
