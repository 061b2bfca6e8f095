import Dispatch
import URLStubs

/// A connection's queue as its players' ``DeliveryScheduler``: each step runs on the queue,
/// then what it wrote goes out in one write.
///
/// While more than ``ServerConnection/outputHighWater`` bytes wait for the client, steps wait
/// too (``ServerConnection/runStep(_:)``): a paced body, whose next chunk is due by the clock
/// rather than by the client, is then sent no faster than the client reads it, and a client
/// that reads nothing costs the server that much memory, not the whole body.
final class ConnectionScheduler: DeliveryScheduler, @unchecked Sendable {
    // @unchecked: `connection` is read on the queue only.
    private weak var connection: ServerConnection?
    private let queue: DispatchQueue

    init(connection: ServerConnection) {
        self.connection = connection
        queue = connection.queue
    }

    func async(_ work: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard let connection else { return work() }
            connection.runStep(work)
        }
    }

    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        guard deadline > .now() else { return async(work) }
        queue.asyncAfter(deadline: deadline) { [self] in
            guard let connection else { return work() }
            connection.runStep(work)
        }
    }
}

extension ServerConnection {
    /// Runs a player's step and sends what it wrote; while the client has more than
    /// ``outputHighWater`` bytes to read, keeps it until the client took some (or the
    /// connection closed: the step then finds the client gone).
    func runStep(_ work: @escaping @Sendable () -> Void) {
        guard output.pending > Self.outputHighWater, case .open = state else {
            work()
            flush()
            return
        }
        parkedSteps.append(work)
    }

    /// Runs the steps kept while the client was behind, once it caught up or the connection closed.
    func resumeParkedSteps() {
        guard !parkedSteps.isEmpty else { return }
        let steps = parkedSteps
        parkedSteps = []
        for step in steps {
            queue.async { [self] in runStep(step) }
        }
    }
}
