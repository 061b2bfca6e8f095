import Foundation
import Dispatch

/// The hand-over of user code: a response closure, a closure matcher, a request body stream
/// read before matching. It runs on the host's threads, never on the loading context, and its
/// answer comes back as a step.
extension ExchangePlayer {
    /// Runs `work` (user code) off the loading context, then plays its answer as a step.
    ///
    /// The work and its answer travel in two fields of the player, not in closures: the jobs
    /// capture only the player, which saves two allocations per request, each made on one
    /// thread and freed on the other (a slow path of the allocator). Each field has one owner
    /// at a time: the scheduler writes `userCode` before the host's runner takes the job (its
    /// lock orders the two), the runner clears it and writes `userCodeAnswer` before it queues
    /// the step that reads it (the queue orders those), and one request waits for one answer
    /// at a time.
    func answerOffContext(_ work: @escaping @Sendable () -> ExchangeAnswer) {
        guard !traits.answersInline else {
            answered(work(), inStep: true)
            return
        }
        userCode = work
        awaitsUserCode = true
        host.runUserCode(runUserCode, watch: timeoutWatch())
    }

    /// On the host's runner.
    private func runUserCode() {
        guard let work = userCode else { return }
        userCode = nil
        userCodeAnswer = work()
        scheduler.async(answerFromUserCode)
    }

    /// A step, on the scheduler.
    private func answerFromUserCode() {
        guard let answer = userCodeAnswer else { return }
        userCodeAnswer = nil
        awaitsUserCode = false
        answered(answer, inStep: false)
        // The runner watched the timeout until now; what is left to play is watched here.
        if !isOver { armTimeout() }
    }
}
