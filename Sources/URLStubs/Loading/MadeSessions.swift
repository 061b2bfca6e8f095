import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What ``StubRegistry/makeSession(configuration:delegate:delegateQueue:)`` knew of each session
/// it made, recorded when it made it: its configuration, whether it has a delegate, and the
/// queue that delegate runs on. A request of such a session reads these from the registry's
/// state (``StubRegistry/State``, read once per request anyway), not from the session, whose
/// `configuration` getter copies the whole configuration on corelibs.
struct MadeSessions: Sendable {
    /// One session made by the registry. A class: a lookup hands it on with one retain.
    final class Record: @unchecked Sendable {
        // @unchecked: the configuration is never changed once its session exists (a session
        // copies it), and OperationQueue is thread-safe.
        weak var session: URLSession?
        let configuration: URLSessionConfiguration
        let hasDelegate: Bool
        let delegateQueue: OperationQueue

        init(session: URLSession, configuration: URLSessionConfiguration, hasDelegate: Bool, delegateQueue: OperationQueue) {
            self.session = session
            self.configuration = configuration
            self.hasDelegate = hasDelegate
            self.delegateQueue = delegateQueue
        }
    }

    private var records: [ObjectIdentifier: Record] = [:]
    /// Records of released sessions are swept when the table doubles past this.
    private var sweepAt = 64

    /// The record of `session`, if this registry made it.
    func record(of session: URLSession) -> Record? {
        guard let record = records[ObjectIdentifier(session)], record.session === session else { return nil }
        return record
    }

    mutating func add(_ session: URLSession, configuration: URLSessionConfiguration, hasDelegate: Bool) {
        if records.count >= sweepAt {
            records = records.filter { $0.value.session != nil }
            sweepAt = max(64, records.count * 2)
        }
        records[ObjectIdentifier(session)] = Record(
            session: session, configuration: configuration, hasDelegate: hasDelegate, delegateQueue: session.delegateQueue)
    }
}
