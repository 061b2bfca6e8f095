import Foundation
import URLStubs

/// A constant answer the registry handed over whole (``URLStubs/ConstantServing``): written as
/// a player would write it, the head, the body, then the finish once the registry journaled
/// the exchange, with no player in between.
extension WireExchange {
    /// The head bytes a connection sent for a stub's constant answer, kept to send again while
    /// the same stub answers alike (same connection handling, version and method). A class:
    /// a look at it costs one retain.
    final class SentHead {
        let stub: StubDescriptor
        let closedBefore: Bool
        let minorVersion: Int
        let isHEAD: Bool
        let status: Int
        let bytes: [UInt8]
        let framing: Framing
        let closesAfter: Bool

        init(
            stub: StubDescriptor, closedBefore: Bool, minorVersion: Int, isHEAD: Bool, status: Int, bytes: [UInt8], framing: Framing,
            closesAfter: Bool
        ) {
            self.stub = stub
            self.closedBefore = closedBefore
            self.minorVersion = minorVersion
            self.isHEAD = isHEAD
            self.status = status
            self.bytes = bytes
            self.framing = framing
            self.closesAfter = closesAfter
        }
    }

    func play(_ served: ConstantServing, on connection: ServerConnection) {
        constant = served
        served.headDelivered()
        sendHead(of: served, on: connection)
        served.bodyDelivered(served.body.count)
        deliver(body: served.body)
        endsWithinStart = true
        defer { endsWithinStart = false }
        served.finish(on: connection.scheduler) { [self] in
            // Later (after the hooks), only while the client is still there.
            if !endsWithinStart, isClientGone { return }
            deliverFinish()
        }
    }

    /// The head: the bytes sent for this stub's last answer on this connection when they
    /// still hold (no CORS fields, the server not stopping), else made afresh.
    private func sendHead(of served: ConstantServing, on connection: ServerConnection) {
        let isHEAD = request.method == "HEAD"
        let closedBefore = closesAfter
        let reusable = sharedWith == nil && !connection.core.stopping
        if reusable, let sent = connection.lastConstantHead, sent.stub === served.stub, sent.closedBefore == closedBefore,
            sent.minorVersion == request.minorVersion, sent.isHEAD == isHEAD
        {
            headSent = true
            framing = sent.framing
            closesAfter = sent.closesAfter
            connection.send(sent.bytes)
            ledger.headSent(status: sent.status, endingAt: connection.output.appendedTotal)
            return
        }
        guard let bytes = sendHead(served.head), reusable else { return }
        connection.lastConstantHead = SentHead(
            stub: served.stub, closedBefore: closedBefore, minorVersion: request.minorVersion, isHEAD: isHEAD, status: served.head.statusCode,
            bytes: bytes, framing: framing, closesAfter: closesAfter)
    }
}
