import Foundation
import Dispatch
import URLStubs

/// Writing a connection's answers, and closing it: an orderly end after the answers, a reset,
/// or at once when the client is gone or the server stops. On the connection's queue.
extension ServerConnection {
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

    var descriptorIsOpen: Bool {
        if case .closed = state { return false }
        return true
    }

    func waitUntilWritable() {
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
        core.connectionSources.enter()
        writeSource = source
        source.activate()
    }

    /// Everything queued is written: an orderly close goes on; reading may resume.
    func afterFlush() {
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
                // dropped until it closes too (or two seconds pass). The wait holds the
                // connection weakly: once closed, nothing of it (nor the registry) outlives the
                // close by those two seconds.
                ServerSocket.shutdownWrites(descriptor)
                if isReadSuspended, let readSource {
                    readSource.resume()
                    isReadSuspended = false
                }
                queue.asyncAfter(deadline: .now() + 2) { [weak self] in self?.finishClosing() }
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
            settle(exchange, closing)
            finishClosing()
        case .afterAnswers, .reset:
            state = .closing(reset: closing == .reset)
            closesWithReset = closing == .reset
            exchange?.clientWentAway()
            flush()
        }
    }

    /// Cancels the sources; the descriptor closes when the last cancel handler ran.
    func finishClosing() {
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
        readSource?.cancel()
        writeSource?.cancel()
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
        resumeParkedSteps()
        core.remove(self)
    }

    func sourceCancelled() {
        defer { core.connectionSources.leave() }
        openSources -= 1
        guard openSources == 0, !descriptorClosed else { return }
        descriptorClosed = true
        if closesWithReset {
            ServerSocket.reset(descriptor)
        } else {
            ServerSocket.close(descriptor)
        }
    }
}
