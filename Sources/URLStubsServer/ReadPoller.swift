import Foundation
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// A server's thread waiting in `epoll_wait` for the bytes of its connections (level-triggered:
/// a socket still holding bytes is reported again), which runs the
/// connection's handler itself, inside `queue.sync`: on an idle connection queue that runs on
/// this thread, so a request costs one wake-up, its `read` and its `write`. A dispatch read
/// source costs a wake-up of the manager thread, two `epoll_ctl`, an `ioctl` and a wake-up of
/// a worker besides. A connection's queue only ever runs short steps (user code runs on the
/// registry's lanes), so a busy one holds this thread for a moment at most. One per server, not
/// per process: servers of tests that run in parallel never wait for each other's connections.
final class ReadPoller: @unchecked Sendable {
    // @unchecked: `readers` and `nextToken` are guarded by `lock`; the descriptors are set once.

    private let epoll: Int32
    /// A pipe whose read end is watched with token 0: a byte written ends the thread.
    private let wake: (read: Int32, write: Int32)
    private let calls: EpollCalls
    private let lock = NSLock()
    private var readers: [UInt64: PolledReader] = [:]
    private var nextToken: UInt64 = 1

    /// `nil` when epoll or the pipe cannot be had (dispatch sources serve then).
    init?() {
        guard let calls = EpollCalls() else { return nil }
        self.calls = calls
        epoll = calls.create(EpollCalls.closeOnExec)
        guard epoll >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(epoll)
            return nil
        }
        wake = (ends[0], ends[1])
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        watch(wake.read, token: 0, true)
        let thread = Thread { [self] in run() }
        thread.name = "URLStubsServer.poller"
        thread.start()
    }

    deinit {
        close(epoll)
        close(wake.read)
        close(wake.write)
    }

    /// Ends the thread (the server stopped): no handler runs after its current one.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    func register(_ reader: PolledReader) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let token = nextToken
        nextToken += 1
        readers[token] = reader
        return token
    }

    func forget(_ token: UInt64) {
        lock.lock()
        readers[token] = nil
        lock.unlock()
    }

    /// Starts (`true`) or stops reporting `descriptor`'s bytes.
    func watch(_ descriptor: Int32, token: UInt64, _ watching: Bool) {
        withUnsafeTemporaryAllocation(byteCount: EpollCalls.eventSize, alignment: 8) { event in
            event.storeBytes(of: EpollCalls.readable, toByteOffset: 0, as: UInt32.self)
            event.storeBytes(of: token, toByteOffset: EpollCalls.dataOffset, as: UInt64.self)
            _ = calls.control(epoll, watching ? EpollCalls.add : EpollCalls.delete, descriptor, event.baseAddress)
        }
    }

    private func run() {
        let capacity = 64
        let events = UnsafeMutableRawPointer.allocate(byteCount: capacity * EpollCalls.eventSize, alignment: 8)
        while true {
            let count = calls.wait(epoll, events, Int32(capacity), -1)
            guard count > 0 else { continue }
            for index in 0..<Int(count) {
                let token = events.loadUnaligned(fromByteOffset: index * EpollCalls.eventSize + EpollCalls.dataOffset, as: UInt64.self)
                if token == 0 {
                    events.deallocate()
                    return
                }
                lock.lock()
                let reader = readers[token]
                lock.unlock()
                reader?.deliver()
            }
        }
    }
}

/// The epoll calls, found in the C library at run time: Swift's Glibc module does not
/// export `<sys/epoll.h>`, and the package has no C target. The layout of `struct
/// epoll_event` (packed on x86_64) and the constants are the kernel's ABI.
struct EpollCalls {
    typealias Create = @convention(c) (Int32) -> Int32
    typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    let create: Create
    let control: Control
    let wait: Wait

    static let closeOnExec: Int32 = 0o2000000
    static let readable: UInt32 = 0x001
    static let add: Int32 = 1
    static let delete: Int32 = 2
    #if arch(x86_64)
    static let eventSize = 12
    static let dataOffset = 4
    #else
    static let eventSize = 16
    static let dataOffset = 8
    #endif

    init?() {
        let library = dlopen(nil, RTLD_NOW)
        guard let create = dlsym(library, "epoll_create1"), let control = dlsym(library, "epoll_ctl"), let wait = dlsym(library, "epoll_wait")
        else { return nil }
        self.create = unsafeBitCast(create, to: Create.self)
        self.control = unsafeBitCast(control, to: Control.self)
        self.wait = unsafeBitCast(wait, to: Wait.self)
    }
}

/// A connection's registration with the ``ReadPoller``. Its state changes on the connection's
/// queue only (the poller reads it inside `queue.sync`).
final class PolledReader: ConnectionReader, @unchecked Sendable {
    // @unchecked: the fields change on the connection's queue only.
    private let poller: ReadPoller
    private let descriptor: Int32
    private let queue: DispatchQueue
    private var handler: (@Sendable () -> Void)?
    private var cancelHandler: (@Sendable () -> Void)?
    private var token: UInt64 = 0
    private var suspensions = 1
    private var cancelled = false

    init(
        poller: ReadPoller, descriptor: Int32, queue: DispatchQueue, handler: @escaping @Sendable () -> Void,
        cancelHandler: @escaping @Sendable () -> Void
    ) {
        self.poller = poller
        self.descriptor = descriptor
        self.queue = queue
        self.handler = handler
        self.cancelHandler = cancelHandler
        token = poller.register(self)
    }

    func activate() { resume() }

    func suspend() {
        guard !cancelled else { return }
        suspensions += 1
        if suspensions == 1 { poller.watch(descriptor, token: token, false) }
    }

    func resume() {
        guard !cancelled, suspensions > 0 else { return }
        suspensions -= 1
        if suspensions == 0 { poller.watch(descriptor, token: token, true) }
    }

    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        if suspensions == 0 { poller.watch(descriptor, token: token, false) }
        poller.forget(token)
        handler = nil
        queue.async { [self] in
            let cancelled = cancelHandler
            cancelHandler = nil
            cancelled?()
        }
    }

    /// On the poller's thread: the descriptor has bytes (or its end).
    func deliver() {
        queue.sync {
            guard !cancelled, suspensions == 0 else { return }
            handler?()
        }
    }
}
#endif
