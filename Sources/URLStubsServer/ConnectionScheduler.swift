import Dispatch
import URLStubs

/// A connection's queue as its players' ``DeliveryScheduler``: each step runs on the queue,
/// then what it wrote goes out in one write.
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
            work()
            connection?.flush()
        }
    }

    func at(_ deadline: DispatchTime, _ work: @escaping @Sendable () -> Void) {
        guard deadline > .now() else { return async(work) }
        queue.asyncAfter(deadline: deadline) { [self] in
            work()
            connection?.flush()
        }
    }
}
