import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request's timeout: the longest wait before the head, and the longest gap between parts
/// of the body, applied here because neither loading system applies it to a custom protocol.
extension ExchangePlayer {
    /// Watches the gap since the last progress. The first check comes after at most a second,
    /// so a request that ended at once is let go soon; later checks come when the gap would
    /// reach the timeout.
    func armTimeout() {
        let timeout = traits.timeout
        guard timeout > 0, timeout.isFinite, !isTimeoutArmed else { return }
        isTimeoutArmed = true
        TimeoutMonitor.shared.check(self, at: firstCheck(timeout))
    }

    /// The watch of the runner for user code this player waits for, when its timeout is not
    /// armed yet (``UserCodeWatch``).
    func timeoutWatch() -> UserCodeWatch? {
        let timeout = traits.timeout
        guard timeout > 0, timeout.isFinite, !isTimeoutArmed else { return nil }
        return UserCodeWatch(due: firstCheck(timeout).uptimeNanoseconds, player: self)
    }

    private func firstCheck(_ timeout: TimeInterval) -> DispatchTime {
        min(lastProgress + timeout, Self.firstCheck(after: .now()))
    }

    /// Step of the grid that first checks fall on.
    static let firstCheckGrid: UInt64 = 250_000_000

    /// The first check of a request started at `now`: a second later, rounded down to a
    /// quarter-second grid. Most requests end long before it and only their check is left;
    /// on a grid, the checks of every request started within a quarter second come due
    /// together and the monitor's timer fires once for all of them, not once per request.
    /// A check earlier than the deadline is only a look: it registers the next one.
    static func firstCheck(after now: DispatchTime) -> DispatchTime {
        let second = now.uptimeNanoseconds + 1_000_000_000
        return DispatchTime(uptimeNanoseconds: second - second % firstCheckGrid)
    }

    /// Called by the ``TimeoutMonitor`` when a check is due, on its queue.
    func timeoutCheckDue() {
        scheduler.async(
            asStep { player in
                let now = DispatchTime.now()
                var progress = player.lastProgress
                if let promised = player.progressPromisedUntil { progress = max(progress, min(now, promised)) }
                let deadline = progress + player.traits.timeout
                if deadline <= now {
                    player.timeoutElapsed()
                } else {
                    player.isTimeoutArmed = true
                    TimeoutMonitor.shared.check(player, at: deadline)
                }
            })
    }

    private func timeoutElapsed() {
        let gap: String
        switch phase {
        case .held(_, let gate, _): gap = "while held by the \(gate); release it sooner or give the request a longer timeout"
        default: gap = current?.deliveredStatus != nil ? "between two parts of the body" : "before the response"
        }
        fail(URLError.stubTimedOut(url: current?.url ?? requestURL, seconds: traits.timeout, gap: gap))
    }
}
