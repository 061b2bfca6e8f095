import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// One client connection: reads requests, answers them one at a time and in order (pipelined
/// requests wait their turn), writes the answers, and closes on the client's end, a timeout or
/// the server's stop.
///
/// Everything happens on `queue`, a serial queue of its own: the reader's handler (on Linux
/// run by the ``ReadPoller``'s thread inside `queue.sync`, so no other thread wakes for a
/// request), the write source, the timeout timer, and the ``WireExchange`` answering the
/// current request (its player's steps run here too). So no field needs a lock, and no thread
/// waits for a slow client.
final class ServerConnection: @unchecked Sendable {
    // @unchecked: every field is touched on `queue` only. Fields are internal, not private,
    // so that this type's extensions (writing and closing, timeouts) reach them.

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

    enum Waiting {
        case request(ParsedHTTPRequest)
        case rejection(RequestRejection)
    }

    enum State {
        case open
        /// An orderly close is under way: the answers are written, then the sending side ends,
        /// and what the client still sends is read and dropped until it closes (a close with
        /// unread bytes would reset the connection and could cost the client the last answer).
        case closing(reset: Bool)
        case closed
    }

    let queue: DispatchQueue
    let core: ServerCore
    let descriptor: Int32
    var parser: HTTPRequestParser
    var state = State.open
    var readSource: (any ConnectionReader)?
    var isReadSuspended = false
    /// `true` once the client shut its sending side: nothing more is read.
    var readEnded = false
    var readEndedAt: DispatchTime?
    var writeSource: (any DispatchSourceWrite)?
    var isWriteSuspended = false
    var timer: (any DispatchSourceTimer)?
    /// Sources whose cancel handler has not run: the descriptor closes when none is left.
    var openSources = 0
    var closesWithReset = false
    var descriptorClosed = false
    /// `true` once the sending side was shut down (an orderly close).
    var wroteEnd = false
    /// Requests (or rejections) received and not yet being answered, oldest first.
    var waiting: [Waiting] = []
    var waitingStart = 0
    /// `true` after a rejection: nothing after it is read as a request.
    var stopsParsing = false
    /// The exchange answering now.
    var current: WireExchange?
    /// Answers ended whose last bytes the client may not have taken yet, with their journal
    /// entries (see `ServerConnection+Settling.swift`).
    var unsettled: [(ledger: DeliveryLedger, entry: UInt64)] = []
    /// A request head asked for `100 Continue`: sent when that request's turn comes.
    var continueOwed = false
    var output = OutputBuffer()
    /// The most output bytes that waited for the client at once.
    var largestPending = 0
    /// `true` while ``pump()`` runs: an exchange that ends within it leaves the next to it.
    var isPumping = false
    /// `true` once `start()` made the sources (a connection closed before has none).
    var started = false
    var lastRead = DispatchTime.now()
    var lastWrite = DispatchTime.now()

    /// At most this many received requests wait for their answers before reading pauses.
    static let maximumWaiting = 32
    /// Reading pauses while more than this many answer bytes wait for the client to read them.
    static let outputHighWater = 1024 * 1024

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
    var isConsumerSuspended = false
    /// Player steps kept while the client is behind (see ``runStep(_:)``).
    var parkedSteps: [@Sendable () -> Void] = []

    /// The URL last made from a request's Host and target, and the last request passed on to
    /// the stubs: a client on a keep-alive connection often asks the same again (see
    /// `ServerConnection+Reuse.swift`).
    var lastURL: (host: String?, target: String, url: URL)?
    var lastRequest: RepeatedRequest?
    /// The head last sent for a stub's constant answer.
    var lastConstantHead: WireExchange.SentHead?

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
            let source = ConnectionReaders.make(
                descriptor: descriptor, core: core, queue: queue, handler: { [unowned self] in readAvailable() },
                cancelHandler: { [self] in sourceCancelled() })
            openSources += 1
            core.connectionSources.enter()
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

    func readAvailable() {
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
    func clientFinishedSending() {
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
    func closeIfNothingIsLeft() {
        guard readEnded, current == nil, waitingStart == waiting.count, case .open = state else { return }
        close(.afterAnswers)
    }

    /// Pauses reading while enough waits (requests to answer, answers to send); resumes it
    /// once that drained.
    func updateReading() {
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
        if pending <= Self.outputHighWater { resumeParkedSteps() }
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
    func pump() {
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
                answer(request)
            case .rejection(let rejection):
                send(WireAnswer.rejection(rejection))
                close(.afterAnswers)
            }
        }
        updateReading()
    }

    /// Starts answering `request`: it becomes the current exchange until its last byte.
    private func answer(_ request: ParsedHTTPRequest) {
        let exchange = WireExchange(request: request, connection: self)
        current = exchange
        exchange.start()
    }

    /// The current exchange wrote its last byte: close as it says, or answer the next.
    func exchangeEnded(_ closing: Closing?) {
        if let ended = current { noteEnded(ended) }
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
}
