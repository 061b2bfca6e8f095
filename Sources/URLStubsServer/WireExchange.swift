import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// One request answered over a connection: the server's ``ExchangeTransport``. The engine
/// (an ``ExchangePlayer`` and the registry) decides everything; this writes what it hands
/// over as HTTP/1.1 bytes and says when the client went away.
///
/// How the engine's calls become bytes:
/// - the head: the status line and the response's fields in order, one `Set-Cookie` per
///   cookie; a body of unknown length is sent chunked (read to the end of the connection by an
///   HTTP/1.0 client); `HEAD`, 1xx, 204 and 304 answers carry no body;
/// - body chunks: written as they come, so pacing and download speeds are real timed writes;
/// - the finish: the chunked body's last chunk, or, when fewer bytes went out than the head's
///   `Content-Length` announced (`truncated(afterBytes:)`), an orderly close after the short
///   body;
/// - a failure after the head (`failing(afterBytes:)`): a reset connection; before the head,
///   an unmatched request is a `404` whose body is the near-miss report (with
///   `URLStubs-Error: unmatchedRequest`), a stub's mistake (a ``URLStubs/StubError``: an
///   invalid header; a ``URLStubs/FixtureError``: a missing body file) a `500` with its
///   explanation (`URLStubs-Error: invalidHeader`, `notFound`: the case or the kind, …),
///   a stub's network fault what ``WireFault`` writes, and any other error (a network failure
///   the stub simulates) a reset, the nearest thing a socket has to a failed load.
final class WireExchange: ExchangeTransport, @unchecked Sendable {
    // @unchecked: touched on the connection's queue only.

    enum Framing {
        /// No body bytes (HEAD, 1xx, 204, 304).
        case none
        /// `Content-Length` bytes; `sent` so far.
        case length(Int, sent: Int)
        case chunked
        /// HTTP/1.0 without a length: the body ends with the connection.
        case untilClose
    }

    let request: ParsedHTTPRequest
    private weak var connection: ServerConnection?
    var player: ExchangePlayer?
    var framing = Framing.none
    var headSent = false
    var closesAfter = false
    /// The allowed web origin the request came from: its answers carry CORS fields.
    var sharedWith: String?
    /// The request as stubs saw it, for scrubbing what the server says about it.
    var seenRequest: URLRequest?
    /// The registry's side of this request, once it reached the registry: its exchange and
    /// whether it is journaled.
    var ticket: JournalTicket?
    /// A constant answer the registry handed over whole, instead of a player.
    var constant: ConstantServing?
    /// `true` while ``play(_:on:)`` ends its exchange: a finish made then needs no check.
    var endsWithinStart = false
    /// The journal entry of this request's exchange, once it has one (0 before).
    var journalNumber: UInt64? { constant?.journalNumber ?? ticket?.exchange?.journalNumber }
    /// What went on the wire, for what the client took (``DeliveryLedger``).
    var ledger = DeliveryLedger()

    /// The connection's last request, when this one repeats its head (see
    /// ``ServerConnection/RepeatedRequest``).
    private let repeated: ServerConnection.RepeatedRequest?

    init(request: ParsedHTTPRequest, connection: ServerConnection) {
        self.request = request
        self.connection = connection
        repeated = connection.repeating(request)
        closesAfter = repeated?.closes ?? !request.keepsAlive
    }

    /// Builds the `URLRequest` a stub sees and starts the player (on the connection's queue);
    /// a request the server refuses (``ServerAccess``) or a CORS preflight it answers itself
    /// never reaches the registry.
    func start() {
        guard let connection else { return }
        if let repeated {
            // The head of the last request answered through the stubs: it passed the same checks.
            sharedWith = repeated.sharedWith
            return answer(repeated.urlRequest, repeated.stubRequest, on: connection)
        }
        let access = connection.core.access
        if let refusal = access.refusal(of: request) {
            connection.send(
                WireAnswer.simple(
                    status: refusal.status, body: refusal.message, closes: true,
                    extraFields: [(WireAnswer.errorField, refusal.kind), ("X-Content-Type-Options", "nosniff")],
                    headRequest: request.method == "HEAD"))
            connection.exchangeEnded(.afterAnswers)
            return
        }
        if let origin = request.value(of: "Origin"), access.sharesResources(with: origin) {
            if CrossOriginFields.isPreflight(request) {
                connection.send(CrossOriginFields.preflightAnswer(to: request, origin: origin, closes: closesAfter))
                connection.exchangeEnded(closesAfter ? .afterAnswers : nil)
                return
            }
            sharedWith = origin
        }
        if let route = access.route(for: request.target) {
            let reply = route.answer(method: request.method, target: request.target, headers: request.headers, body: request.body)
            connection.send(reply.bytes(closes: closesAfter, headRequest: request.method == "HEAD"))
            connection.exchangeEnded(closesAfter ? .afterAnswers : nil)
            return
        }
        if request.target == "*" {
            // The asterisk form is for a server-wide OPTIONS (RFC 9112 §3.2.4), never a resource.
            guard request.method == "OPTIONS" else {
                connection.send(
                    WireAnswer.rejection(RequestRejection(status: 400, reason: "the target * is for OPTIONS * only; \(request.method) needs a path")))
                connection.exchangeEnded(.afterAnswers)
                return
            }
            connection.send(
                WireAnswer.head(
                    status: 204, fields: [("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")] + (closesAfter ? [("Connection", "close")] : []))
            )
            connection.exchangeEnded(closesAfter ? .afterAnswers : nil)
            return
        }
        guard let url = connection.url(of: request) else {
            connection.send(
                WireAnswer.rejection(
                    RequestRejection(status: 400, reason: "the target \(request.target.debugDescription) with its Host does not make a URL")))
            connection.exchangeEnded(.afterAnswers)
            return
        }
        let urlRequest = request.urlRequest(url: url)
        let stubRequest = StubRequest(urlRequest)
        connection.remember(request, closes: closesAfter, sharedWith: sharedWith, urlRequest: urlRequest, stubRequest: stubRequest)
        answer(urlRequest, stubRequest, on: connection)
    }

    /// The client left (or the server stops): the player stops, and the exchange ends
    /// cancelled unless it ended already.
    func clientWentAway() {
        connection = nil
        player?.cancel()
        player = nil
    }

    var isClientGone: Bool { connection?.isClosed ?? true }

    // MARK: ExchangeTransport

    func deliver(head: ResponseHead) {
        _ = sendHead(head)
    }

    /// Sends `head`; returns its bytes, `nil` when none went out (a fault played instead, or
    /// the client is gone).
    func sendHead(_ head: ResponseHead) -> [UInt8]? {
        guard let connection else { return nil }
        if let fault = WireFault(head: head) {
            play(fault, on: connection, status: head.statusCode)
            return nil
        }
        headSent = true
        let status = head.statusCode
        let isHEAD = request.method == "HEAD"
        let noBody = status == 204 || (100..<200).contains(status)
        var fields: [(name: String, value: String)] = []
        var closes = closesAfter || connection.core.stopping
        for field in head.fields {
            if field.name.isSameFieldName(as: "Transfer-Encoding") { continue }  // framing is the server's
            if noBody, field.name.isSameFieldName(as: "Content-Length") { continue }
            if field.name.isSameFieldName(as: "Connection"), field.value.lowercased().contains("close") { closes = true }
            fields.append(field)
        }
        if isHEAD || noBody || status == 304 {
            framing = .none
        } else if let length = head.announcedLength {
            framing = .length(length, sent: 0)
        } else if request.minorVersion >= 1 {
            framing = .chunked
            fields.append(("Transfer-Encoding", "chunked"))
        } else {
            framing = .untilClose
            closes = true
        }
        if closes {
            if !fields.contains(where: { $0.name.isSameFieldName(as: "Connection") }) { fields.append(("Connection", "close")) }
        } else if request.minorVersion == 0 {
            fields.append(("Connection", "keep-alive"))
        }
        closesAfter = closes
        if let sharedWith { fields += CrossOriginFields.forAnswer(origin: sharedWith, responseFields: fields) }
        let bytes = WireAnswer.head(status: status, fields: fields)
        connection.send(bytes)
        ledger.headSent(status: status, endingAt: connection.output.appendedTotal)
        ticket?.noteSent(status: status, bodyBytes: 0)
        return bytes
    }

    func deliver(body: Data) {
        guard let connection else { return }
        switch framing {
        case .none:
            return
        case .length(let length, let sent):
            // The engine never sends past the announced length (it fails the exchange first).
            let part = body.prefix(max(0, length - sent))
            framing = .length(length, sent: sent + part.count)
            ledger.bodySent(part.count, at: connection.output.appendedTotal)
            connection.send(part)
        case .chunked:
            connection.send(Array("\(String(body.count, radix: 16))\r\n".utf8))
            ledger.bodySent(body.count, at: connection.output.appendedTotal)
            connection.send(body)
            connection.send(Array("\r\n".utf8))
        case .untilClose:
            ledger.bodySent(body.count, at: connection.output.appendedTotal)
            connection.send(body)
        }
        ticket?.noteSent(status: ledger.status, bodyBytes: ledger.bodyBytes)
    }

    func deliverFinish() {
        guard let connection else { return }
        player = nil
        switch framing {
        case .length(let length, let sent) where sent < length:
            // A short body on purpose (truncated(afterBytes:)): the client learns it from the end.
            connection.exchangeEnded(.afterAnswers)
        case .chunked:
            connection.send(Array("0\r\n\r\n".utf8))
            connection.exchangeEnded(closesAfter ? .afterAnswers : nil)
        case .untilClose:
            connection.exchangeEnded(.afterAnswers)
        case .none, .length:
            connection.exchangeEnded(closesAfter ? .afterAnswers : nil)
        }
    }

    func deliverFailure(_ error: any Error) {
        guard let connection else { return }
        player = nil
        if let fault = WireFault(failure: error) { return play(fault, on: connection, status: 200) }
        let stubError = StubError.from(error)
        // The explanation and the URLStubs-Error value, for a stub's mistake or a file it names.
        // An unmatched request's report is scrubbed already (the engine's near-miss report).
        let explained =
            stubError.map { stubError in
                if case .unmatchedRequest = stubError { return ("", "unmatchedRequest") }
                return (scrubbed(stubError.description), Self.caseName(of: stubError))
            }
            ?? (error as? FixtureError).map { (WireErrorText.fixtureProblem($0), "\($0.kind)") }
        guard !headSent, let explained else {
            connection.exchangeEnded(.reset)
            return
        }
        let isHEAD = request.method == "HEAD"
        let cors = sharedWith.map { CrossOriginFields.forAnswer(origin: $0, responseFields: []) } ?? []
        if case .unmatchedRequest(let report)? = stubError {
            connection.send(
                WireAnswer.simple(
                    status: 404, body: report + "\n", closes: closesAfter,
                    extraFields: [(WireAnswer.errorField, "unmatchedRequest")] + cors, headRequest: isHEAD))
        } else {
            connection.send(
                WireAnswer.simple(
                    status: 500, body: explained.0 + "\n", closes: closesAfter,
                    extraFields: [(WireAnswer.errorField, explained.1)] + cors, headRequest: isHEAD))
        }
        connection.exchangeEnded(closesAfter ? .afterAnswers : nil)
    }

    /// Plays a stub's network fault on the socket (``WireFault``); the player's later calls find no connection.
    private func play(_ fault: WireFault, on connection: ServerConnection, status: Int) {
        self.connection = nil
        fault.play(on: connection, status: status)
    }

    /// `text` without the request's secrets nor what stubs expect (the registry's scrubbing).
    private func scrubbed(_ text: String) -> String {
        guard let seenRequest, let registry = connection?.core.registry else { return text }
        return registry.scrubbing.reportRedactor(for: StubRequest(seenRequest), text: text).redact(text)
    }

    func handOver(redirectTo next: URLRequest, head: ResponseHead) {
        // Never called: the traits say redirects are delivered as final 3xx answers.
    }

    /// `invalidHeader` for `.invalidHeader(name: …)`.
    private static func caseName(of error: StubError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "stubError"
    }
}
