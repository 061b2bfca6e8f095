import Foundation
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// What tells a connection that its client sent bytes: calls its handler on the connection's
/// queue while the socket has bytes to read (or its end, or an error), until suspended or
/// cancelled. The calls a ``ServerConnection`` makes are the ones a `DispatchSourceRead`
/// takes, all on the connection's queue: `activate`, `suspend` and `resume` (balanced),
/// `cancel`, after which the cancel handler runs on the queue once no handler call can come
/// any more (the descriptor may close then).
protocol ConnectionReader: AnyObject {
    func activate()
    func suspend()
    func resume()
    func cancel()
}

enum ConnectionReaders {
    /// A reader for `descriptor`: on Linux the server's ``ReadPoller`` (one epoll thread
    /// answers its connections' bytes where they arrive: no queue hop, no re-arming per
    /// request); elsewhere a dispatch read source.
    static func make(
        descriptor: Int32, core: ServerCore, queue: DispatchQueue, handler: @escaping @Sendable () -> Void,
        cancelHandler: @escaping @Sendable () -> Void
    ) -> any ConnectionReader {
        #if os(Linux)
        if let poller = core.poller {
            return PolledReader(poller: poller, descriptor: descriptor, queue: queue, handler: handler, cancelHandler: cancelHandler)
        }
        #endif
        return DispatchReader(descriptor: descriptor, queue: queue, handler: handler, cancelHandler: cancelHandler)
    }
}

/// A dispatch read source as a ``ConnectionReader``.
final class DispatchReader: ConnectionReader {
    private let source: any DispatchSourceRead

    init(descriptor: Int32, queue: DispatchQueue, handler: @escaping @Sendable () -> Void, cancelHandler: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler(handler: handler)
        source.setCancelHandler(handler: cancelHandler)
    }

    func activate() { source.activate() }
    func suspend() { source.suspend() }
    func resume() { source.resume() }
    func cancel() { source.cancel() }
}
