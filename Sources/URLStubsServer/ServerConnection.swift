import Foundation
import Dispatch
import URLStubs

/// One client connection: reads requests, answers them one at a time and in order (pipelined
/// requests wait their turn), writes the answers, and closes on the client's end, a timeout or
/// the server's stop.
///
/// Everything happens on `queue`, a serial queue of its own: the read and write sources, the
/// timeout timer, and the ``WireExchange`` answering the current request (its player's steps
/// run here too). So no field needs a lock, and no thread waits for a slow client.
final class ServerConnection: @unchecked Sendable {
    // @unchecked: every field is touched on `queue` only.

    /// Why a connection closes, which decides how.
    enum Closing {
        /// The client closed its side or the connection failed: nothing more can be sent.
        case clientGone
        /// The answers so far go out, then an orderly end (FIN): the client reads all of them.
        case afterAnswers
        /// The answers so far go out, then a reset (RST): a failure after the head.
        case reset
        /// The server stops.
        case serverStopped
    }

    private enum Waiting {
        case request(ParsedHTTPRequest)
        case rejection(RequestRejection)
    }

    private enum State {
        case open
        /// An orderly close is under way: the answers are written, then the sending side ends,
        /// and what the client still sends is read and dropped until it closes (a close with
        /// unread bytes would reset the connection and could cost the client the last answer).
        case closing(reset: Bool)
        case closed
    }

    let queue: DispatchQueue
    let core: ServerCore
    private let descriptor: Int32
    private var parser: HTTPRequestParser
    private var state = State.open
    private var readSource: (any DispatchSourceRead)?
    private var isReadSuspended = false
    /// `true` once the client shut its sending side: nothing more is read.
    private var readEnded = false
    private var readEndedAt: DispatchTime?
    private var writeSource: (any DispatchSourceWrite)?
    private var isWriteSuspended = false
    private var timer: (any DispatchSourceTimer)?
    /// Sources whose cancel handler has not run: the descriptor closes when none is left.
    private var openSources = 0
    private var closesWithReset = false
    private var descriptorClosed = false
    /// `true` once the sending side was shut down (an orderly close).
    private var wroteEnd = false
    /// Requests (or rejections) received and not yet being answered, oldest first.
    private var waiting: [Waiting] = []
    private var waitingStart = 0
    /// `true` after a rejection: nothing after it is read as a request.
    private var stopsParsing = false
    /// The exchange answering now.
    private var current: WireExchange?
    /// A request head asked for `100 Continue`: sent when that request's turn comes.
    private var continueOwed = false
    private var output = OutputBuffer()
    /// The most output bytes that waited for the client at once.
    private var largestPending = 0
    /// `true` while ``pump()`` runs: an exchange that ends within it leaves the next to it.
    private var isPumping = false
    /// `true` once `start()` made the sources (a connection closed before has none).
    private var started = false
    private var lastRead = DispatchTime.now()
    private var lastWrite = DispatchTime.now()

    /// At most this many received requests wait for their answers before reading pauses.
    private static let maximumWaiting = 32
    /// Reading pauses while more than this many answer bytes wait for the client to read them.
    private static let outputHighWater = 1024 * 1024

    /// Where the players of this connection run their steps: its queue, with what a step
    /// wrote sent when it ends.
    private(set) lazy var scheduler = ConnectionScheduler(connection: self)
    /// Where a body's next chunk is asked for once the client took the last one (the
    /// player's ``TransportTraits/consumerQueue``): suspended while more than
    /// ``outputHighWater`` bytes wait for the client, so a file or stream body is read no
    /// faster than the client reads it. Made on the first request.
    private(set) lazy var consumerQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "URLStubsServer.consumer"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private var isConsumerSuspended = false

    /// The URL last made from a request's Host and target: a client on a keep-alive
    /// connection often asks for the same one again.
    private var lastURL: (host: String?, target: String, url: URL)?

    init(descriptor: Int32, core: ServerCore) {
        self.descriptor = descriptor
        self.core = core
        queue = DispatchQueue(label: "URLStubsServer.connection", target: .global())
        parser = HTTPRequestParser(maximumHeaderBytes: core.limits.maximumHeaderBytes, maximumBodyBytes: core.limits.maximumBodyBytes)
    }

    var isClosed: Bool {
        if case .open = state { return false }
        return true
    }

    /// Starts reading (from any thread).
    func start() {
        queue.async { [self] in
            guard case .open = state else { return }
            started = true
            // The client's time to send its request counts from here, not from the accept.
            lastRead = .now()
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [unowned self] in readAvailable() }
            source.setCancelHandler { [self] in sourceCancelled() }
            openSources += 1
            readSource = source
            source.activate()
            let limits = core.limits
            let interval = max(0.01, min(limits.readTimeout / 2, limits.requestHeadTimeout / 2, 1))
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(interval * 250)))
            timer.setEventHandler { [unowned self] in checkTimeouts() }
            self.timer = timer
            timer.activate()
        }
    }

    // MARK: Reading

    private func readAvailable() {
        var result = ServerSocket.Transfer.wouldBlock
        withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { buffer in
            // A few reads per wake-up, so one busy client does not starve the others.
            for _ in 0..<4 {
                result = ServerSocket.read(descriptor, into: buffer)
                guard case .bytes(let count) = result else { return }
                if case .open = state, !stopsParsing {
                    lastRead = .now()
                    parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: lastRead.uptimeNanoseconds)
                }
                if count < buffer.count { return }
            }
        }
        switch result {
        case .closed where !isClosed:
            clientFinishedSending()
        case .closed, .failed:
            if case .closing = state {
                finishClosing()
            } else {
                close(.clientGone)
            }
        case .bytes, .wouldBlock:
            pump()
            flush()
        }
    }

    /// The client shut its sending side (a half-close: `shutdown(SHUT_WR)`, `nc -N`) and still
    /// reads: what it sent is answered, in order, then the connection closes.
    private func clientFinishedSending() {
        readEnded = true
        readEndedAt = .now()
        if let readSource, !isReadSuspended {
            readSource.suspend()
            isReadSuspended = true
        }
        pump()
        closeIfNothingIsLeft()
        flush()
    }

    /// After a half-close: closes once the last request received is answered.
    private func closeIfNothingIsLeft() {
        guard readEnded, current == nil, waitingStart == waiting.count, case .open = state else { return }
        close(.afterAnswers)
    }

    /// Pauses reading while enough waits (requests to answer, answers to send); resumes it
    /// once that drained.
    private func updateReading() {
        let pending = output.pending
        if pending > largestPending {
            largestPending = pending
            core.noteOutputWaiting(pending)
        }
        if pending > Self.outputHighWater, !isConsumerSuspended {
            consumerQueue.isSuspended = true
            isConsumerSuspended = true
        } else if pending <= Self.outputHighWater, isConsumerSuspended {
            consumerQueue.isSuspended = false
            isConsumerSuspended = false
        }
        guard let readSource, case .open = state else { return }
        let full = readEnded || waiting.count - waitingStart >= Self.maximumWaiting || pending > Self.outputHighWater
        if full, !isReadSuspended {
            readSource.suspend()
            isReadSuspended = true
        } else if !full, isReadSuspended {
            readSource.resume()
            isReadSuspended = false
        }
    }

    // MARK: Answering

    /// Answers what was received, in order, until a request is left being answered (or none
    /// is left). A loop rather than recursion: an answer made within its own start (a body in
    /// memory) ends before `start()` returns, and a thousand pipelined requests must not nest
    /// a thousand calls.
    private func pump() {
        guard !isPumping else { return }
        isPumping = true
        defer { isPumping = false }
        while current == nil, case .open = state {
            while !stopsParsing, waiting.count - waitingStart < Self.maximumWaiting, let event = parser.next() {
                switch event {
                case .request(let request):
                    waiting.append(.request(request))
                case .expectsContinue:
                    continueOwed = true
                case .rejected(let rejection):
                    waiting.append(.rejection(rejection))
                    stopsParsing = true
                }
            }
            guard waitingStart < waiting.count else {
                if continueOwed {
                    // The request that asked is next in line: let the client send its body.
                    continueOwed = false
                    send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    flush()
                }
                break
            }
            let next = waiting[waitingStart]
            waitingStart += 1
            if waitingStart == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingStart = 0
            }
            switch next {
            case .request(let request):
                let exchange = WireExchange(request: request, connection: self)
                current = exchange
                exchange.start()
            case .rejection(let rejection):
                send(WireAnswer.rejection(rejection))
                close(.afterAnswers)
            }
        }
        updateReading()
    }

    /// The current exchange wrote its last byte: close as it says, or answer the next.
    func exchangeEnded(_ closing: Closing?) {
        current = nil
        parser.restartClocks(at: DispatchTime.now().uptimeNanoseconds)
        if let closing {
            close(closing)
            return
        }
        flushSoon()
        pump()
        closeIfNothingIsLeft()
    }

    /// The URL `request` asks for (see ``ParsedHTTPRequest/url(defaultHost:)``).
    func url(of request: ParsedHTTPRequest) -> URL? {
        let host = request.value(of: "Host")
        if let lastURL, lastURL.target == request.target, lastURL.host == host { return lastURL.url }
        let url = request.url(defaultHost: core.defaultHost)
        if let url { lastURL = (host, request.target, url) }
        return url
    }

    // MARK: Writing

    /// Queues bytes to send; they go out on the next flush.
    func send(_ bytes: [UInt8]) {
        guard case .open = state else { return }
        output.append(bytes)
    }

    /// Queues `data` to send.
    func send(_ data: Data) {
        guard case .open = state else { return }
        output.append(data)
    }

    /// Sends what is queued once the current step is over (see ``ConnectionScheduler``), so
    /// that a head, its body and its end go out in one write; now when much is queued.
    func flushSoon() {
        if output.pending >= 64 * 1024 { flush() }
    }

    /// Writes what the socket takes now; the write source resumes writing when it can.
    func flush() {
        guard output.pending > 0, descriptorIsOpen else {
            afterFlush()
            return
        }
        let before = output.pending
        let stopped = output.write(to: descriptor)
        if output.pending < before { lastWrite = .now() }
        switch stopped {
        case .wouldBlock?:
            waitUntilWritable()
            updateReading()
            return
        case .closed?, .failed?:
            close(.clientGone)
            return
        case .bytes?, nil:
            break
        }
        if let writeSource, !isWriteSuspended {
            writeSource.suspend()
            isWriteSuspended = true
        }
        afterFlush()
    }

    private var descriptorIsOpen: Bool {
        if case .closed = state { return false }
        return true
    }

    private func waitUntilWritable() {
        if let writeSource {
            if isWriteSuspended {
                writeSource.resume()
                isWriteSuspended = false
            }
            return
        }
        let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in flush() }
        source.setCancelHandler { [self] in sourceCancelled() }
        openSources += 1
        writeSource = source
        source.activate()
    }

    /// Everything queued is written: an orderly close goes on; reading may resume.
    private func afterFlush() {
        switch state {
        case .open:
            updateReading()
        case .closing(let reset):
            guard output.pending == 0 else { return }
            if reset {
                finishClosing()
            } else if !wroteEnd {
                wroteEnd = true
                // The client reads everything sent, then the end; what it still sends is
                // dropped until it closes too (or two seconds pass).
                ServerSocket.shutdownWrites(descriptor)
                if isReadSuspended, let readSource {
                    readSource.resume()
                    isReadSuspended = false
                }
                queue.asyncAfter(deadline: .now() + 2) { [self] in finishClosing() }
            }
        case .closed:
            break
        }
    }

    // MARK: Closing

    /// Closes the connection as `closing` says. The exchange being answered is cancelled
    /// unless it ended already.
    func close(_ closing: Closing) {
        guard case .open = state else {
            if closing == .clientGone || closing == .serverStopped { finishClosing() }
            return
        }
        let exchange = current
        current = nil
        switch closing {
        case .clientGone, .serverStopped:
            state = .closed
            exchange?.clientWentAway()
            finishClosing()
        case .afterAnswers, .reset:
            state = .closing(reset: closing == .reset)
            closesWithReset = closing == .reset
            exchange?.clientWentAway()
            flush()
        }
    }

    /// Cancels the sources; the descriptor closes when the last cancel handler ran.
    private func finishClosing() {
        let wasStarted = started
        started = false
        state = .closed
        if !wasStarted, readSource == nil {
            // Closed before it started reading (the server stopped at once): no source to wait for.
            if openSources == 0, !descriptorClosed {
                descriptorClosed = true
                ServerSocket.close(descriptor)
                core.remove(self)
            }
            return
        }
        timer?.cancel()
        timer = nil
        for source in [readSource as (any DispatchSourceProtocol)?, writeSource].compactMap({ $0 }) {
            source.cancel()
        }
        if isConsumerSuspended {
            // What waits there ends at once: its player has ended.
            consumerQueue.isSuspended = false
            isConsumerSuspended = false
        }
        if isReadSuspended { readSource?.resume() }
        if isWriteSuspended { writeSource?.resume() }
        isReadSuspended = false
        isWriteSuspended = false
        readSource = nil
        writeSource = nil
        output.removeAll()
        waiting = []
        core.remove(self)
    }

    private func sourceCancelled() {
        openSources -= 1
        guard openSources == 0, !descriptorClosed else { return }
        descriptorClosed = true
        if closesWithReset {
            ServerSocket.reset(descriptor)
        } else {
            ServerSocket.close(descriptor)
        }
    }

    // MARK: Timeouts

    /// A head that is not whole within ``StubServer/Limits/requestHeadTimeout``, or a body
    /// arriving slower than ``StubServer/Limits/minimumBodyBytesPerSecond`` once the read
    /// timeout has passed: however often a byte arrives, a request has a deadline.
    private func deadlineMissed(now: UInt64) -> RequestRejection? {
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
    private func checkTimeouts() {
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
