import Foundation
import Dispatch
import URLStubs

/// The deadlines a connection keeps: the read timeout, a whole head's, a body's pace, and
/// the wait after a client's end. Checked by the connection's timer, on its queue.
extension ServerConnection {
    // MARK: Timeouts

    /// A head that is not whole within ``StubServer/Limits/requestHeadTimeout``, or a body
    /// arriving slower than ``StubServer/Limits/minimumBodyBytesPerSecond`` once the read
    /// timeout has passed: however often a byte arrives, a request has a deadline.
    func deadlineMissed(now: UInt64) -> RequestRejection? {
        let limits = core.limits
        if let began = parser.headBegan, Double(now &- began) / 1e9 >= limits.requestHeadTimeout {
            return RequestRejection(
                status: 408,
                reason: "the request head did not arrive whole within the server's head timeout of \(limits.requestHeadTimeout) seconds")
        }
        if let began = parser.bodyBegan {
            let seconds = Double(now &- began) / 1e9
            let owed = (seconds - limits.readTimeout) * Double(limits.minimumBodyBytesPerSecond)
            if owed > 0, Double(parser.bodyReceived) < owed {
                return RequestRejection(
                    status: 408,
                    reason:
                        "the body arrived slower than the server's minimum of \(limits.minimumBodyBytesPerSecond) bytes a second (\(parser.bodyReceived) bytes in \(Int(seconds)) seconds)"
                )
            }
        }
        return nil
    }

    /// A client that sends nothing, or reads nothing, for the read timeout loses its
    /// connection; one begun request gets 408 first.
    func checkTimeouts() {
        let timeout = core.limits.readTimeout
        let now = DispatchTime.now()
        func elapsed(since moment: DispatchTime) -> Double { Double(now.uptimeNanoseconds - moment.uptimeNanoseconds) / 1e9 }
        if output.pending > 0, elapsed(since: lastWrite) >= timeout {
            // The client stopped reading its answers.
            closesWithReset = true
            close(.clientGone)
            return
        }
        if let ended = readEndedAt, case .open = state, elapsed(since: max(ended, lastWrite)) >= timeout {
            // A half-closed client cannot be told from one that left until a write finds it gone:
            // an answer that sends nothing for the read timeout after the client's end is cancelled.
            close(.clientGone)
            return
        }
        guard case .open = state, current == nil, waitingStart == waiting.count else { return }
        if let rejection = deadlineMissed(now: now.uptimeNanoseconds) {
            send(WireAnswer.rejection(rejection))
            close(.afterAnswers)
            return
        }
        guard elapsed(since: lastRead) >= timeout else { return }
        if parser.isBetweenRequests {
            close(.afterAnswers)
        } else {
            send(
                WireAnswer.rejection(
                    RequestRejection(status: 408, reason: "the rest of the request did not arrive within the read timeout of \(timeout) seconds")))
            close(.afterAnswers)
        }
    }
}
