import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// A body the test writes over the link while the app reads it: the source the app attaches to
/// its registry under the name a declaration's `{"stream": name}` body gives
/// (`registry.attachStream(named:source:)`), fed by the test's `streamSend`, `streamFinish` and
/// `streamFail` commands.
///
/// It serves one request at a time. Writes made before a request connects wait for it; a write
/// after the end, or after the request went away (until another connects), fails the test's
/// call saying why.
final class LinkStream: @unchecked Sendable, CustomStringConvertible {
    let name: String
    private let lock = NSLock()
    private var pending: [StreamedWrite] = []
    /// Who ended the body, once it is ended.
    private var ending: String?
    private var connection: Connection?
    /// Why the connected request went away before the end.
    private var departure: String?
    /// The requests that connected, for the test's waits.
    let arrivals = ArrivalLine<StubRequest>()

    init(name: String) { self.name = name }

    /// `live stream "stream-2: prices"`.
    var description: String { "live stream \"\(name)\"" }

    /// The engine's source: connects a request to the stream.
    var source: StubBody.StreamedSource {
        { [self] request, stub, wake in
            lock.lock()
            if connection != nil {
                lock.unlock()
                throw StubError.library(LinkFailure.streamBusy(stream: description, stub: stub))
            }
            if ending != nil, pending.isEmpty {
                lock.unlock()
                throw StubError.library(LinkFailure.streamEnded(stream: description, stub: stub))
            }
            departure = nil
            let connected = Connection(stream: self, wake: wake)
            connection = connected
            let waiting = !pending.isEmpty
            lock.unlock()
            arrivals.arrive(request)
            if waiting { wake() }
            return .pushed(connected)
        }
    }

    /// Writes `data`, or ends the body (`write` is `.finish` or `.failure`).
    func write(_ write: StreamedWrite) throws {
        lock.lock()
        if let ending {
            lock.unlock()
            throw StubError.library(LinkFailure.writeAfterEnd(stream: description, ended: ending))
        }
        if let departure {
            lock.unlock()
            throw StubError.library(LinkFailure.notConnected(stream: description, reason: departure))
        }
        pending.append(write)
        if case .data = write {} else { ending = "by the test" }
        let wake = connection?.wake
        lock.unlock()
        wake?()
    }

    /// Ends the body with `error` unless it has ended: the link went away.
    func abandon(_ error: any Error) {
        try? write(.failure(error))
    }

    fileprivate func take(for connection: Connection) -> [StreamedWrite] {
        lock.lock(); defer { lock.unlock() }
        guard self.connection === connection else { return [] }
        defer { pending.removeAll() }
        return pending
    }

    fileprivate func disconnect(_ connection: Connection, reason: String) {
        lock.lock(); defer { lock.unlock() }
        guard self.connection === connection else { return }
        self.connection = nil
        // What the request had not taken is dropped; writes fail until another one connects.
        if ending == nil { departure = reason }
        pending.removeAll()
    }

    /// The one request connected to the stream: what the engine's player takes the writes from.
    fileprivate final class Connection: StreamedBodyConnection, @unchecked Sendable {
        let stream: LinkStream
        let wake: @Sendable () -> Void

        init(stream: LinkStream, wake: @escaping @Sendable () -> Void) {
            self.stream = stream
            self.wake = wake
        }

        func take() -> [StreamedWrite] { stream.take(for: self) }
        // The link keeps no buffer limit: each write is one frame, at most the frame limit.
        func consumed(_ bytes: Int) {}
        func disconnect(reason: String) { stream.disconnect(self, reason: reason) }
    }
}
