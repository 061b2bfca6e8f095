import Foundation
import Dispatch
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries an exchange's answer to its client: the seam between the engine and a way of
/// loading (``StubURLProtocol`` on Linux and on Apple platforms today).
///
/// The engine (``ExchangePlayer`` and its ``ExchangeHost``) decides everything a user can
/// observe: which stub answers, hooks, the journal, pacing, redirects, cookies, timeouts and
/// errors. A transport only carries what the player hands it, and tells when its client went
/// away. Its contract:
///
/// - The player calls it on ``TransportTraits/scheduler`` only, one call at a time, in this
///   order: at most one ``deliver(head:)``, then any number of ``deliver(body:)``, then exactly
///   one of ``deliverFinish()`` or ``deliverFailure(_:)``; or only ``deliverFailure(_:)`` when
///   no head was sent. After that last call, and after the transport called
///   ``ExchangePlayer/cancel()``, the player calls it never again.
/// - ``handOver(redirectTo:head:)`` is called only when ``TransportTraits/redirects`` is
///   ``TransportTraits/RedirectHandling/handedToClient``; the head, body and finish of the 3xx
///   follow it, unless the transport cancels the player first (its client followed).
/// - A transport whose client goes away calls ``ExchangePlayer/cancel()`` on the scheduler; one
///   that learns of it only by asking answers ``isClientGone`` (corelibs marks a task cancelled
///   a step before it stops the protocol), which the player reads at the start of each step.
/// - The player holds its transport weakly: a transport that is released is a client gone.
package protocol ExchangeTransport: AnyObject {
    /// Sends the response head (status and header fields, in order, repeats kept).
    func deliver(head: ResponseHead)
    /// Sends body bytes, in order; each byte is handed over once.
    func deliver(body: Data)
    /// Ends the response normally.
    func deliverFinish()
    /// Ends the response with `error` (before or after the head).
    func deliverFailure(_ error: any Error)
    /// Hands a redirect to a client that follows redirects itself (Apple's loading system).
    func handOver(redirectTo next: URLRequest, head: ResponseHead)
    /// `true` once the client is going away although ``ExchangePlayer/cancel()`` was not called
    /// yet.
    var isClientGone: Bool { get }
}

/// Asks a client whether to follow a redirect (corelibs' task delegate).
package protocol RedirectAsker: Sendable {
    /// Asks about `response`, which redirects to `next`; `decide` gets the request to follow
    /// (`nil`: do not follow, deliver the 3xx), on any queue.
    func ask(about response: HTTPURLResponse, next: URLRequest, decide: @escaping @Sendable (URLRequest?) -> Void)
}

/// What a transport can do, told to the player once, when it starts.
package struct TransportTraits: @unchecked Sendable {
    // @unchecked: the operation queue is thread-safe.

    /// Who follows a redirect a stub answers with.
    package enum RedirectHandling: Sendable {
        /// The player does, matching the next hop itself; `ask` (when set) asks the client
        /// whether to follow (corelibs' task delegate): its answer (`nil`: do not follow, send
        /// the 3xx) comes back on any queue.
        case followedByPlayer(ask: (any RedirectAsker)?)
        /// The client does (Apple's loading system, after `wasRedirectedTo`).
        case handedToClient
        /// Nobody here: the 3xx is delivered as it is, and a client may follow it (a server).
        case deliveredAsFinal
    }

    /// Where the player's steps run and every transport call is made (a serial context).
    package let scheduler: any DeliveryScheduler
    /// `true` when the client sees every body chunk; `false` when it keeps only the last one
    /// (corelibs' completion handlers and `async` calls): the body then goes out whole, when its
    /// last paced byte would have arrived.
    package let deliversChunks: Bool
    /// Who follows redirects.
    package var redirects: RedirectHandling
    /// Where a delivered chunk is taken by the client (a session delegate's queue): the next
    /// chunk is read once the client has run the callbacks made so far, so a fast body to a
    /// slow client does not pile up in memory. `nil` when delivering is taking.
    package let consumerQueue: OperationQueue?
    /// The cookie store of the client's session, which the engine reads and writes the way a
    /// session treats an HTTP response; `nil` when the client keeps its own cookies (it gets
    /// `Set-Cookie` in the head, as from a server).
    package let cookies: SessionCookies?
    /// The longest wait before the head and the longest gap between parts of the body;
    /// `.infinity` for none.
    package let timeout: TimeInterval
    /// Redirects that led to this request before the player started (Apple: each hop is a new
    /// protocol instance, and the count is kept per task).
    package var redirectsSoFar = 0
    /// `true` when everything must happen within the call that starts the player (corelibs'
    /// fallback when no other place is known to be safe for callbacks).
    package var answersInline = false
    /// Where a passthrough sends its request: `nil` sends it as it is (a session's own
    /// request); else the request to send, made from the exchange's request and that request
    /// with its body. A server sends only to the upstream its test names: this throws the
    /// error the client gets (a ``StubError/unmatchedRequest(report:)``) when there is none.
    package var passthroughTarget: (@Sendable (StubRequest, URLRequest) throws -> URLRequest)?
    /// Checks the request a proxying response (``ResponseAction/proxy(to:)``) is about to send,
    /// already aimed at its base; throwing fails the request with that error (the server
    /// refuses a base that is itself).
    package var proxyTargetCheck: (@Sendable (URLRequest) throws -> Void)?

    /// What a transport can do; ``redirectsSoFar`` and ``answersInline`` keep their defaults
    /// unless set.
    package init(
        scheduler: any DeliveryScheduler, deliversChunks: Bool, redirects: RedirectHandling, consumerQueue: OperationQueue?,
        cookies: SessionCookies?, timeout: TimeInterval
    ) {
        self.scheduler = scheduler
        self.deliversChunks = deliversChunks
        self.redirects = redirects
        self.consumerQueue = consumerQueue
        self.cookies = cookies
        self.timeout = timeout
    }
}

/// A response head as a transport sends it: a response's status, version and headers, with
/// the `Content-Length` of the body that follows.
package struct ResponseHead: Sendable {
    /// The URL the response answers.
    package let url: URL
    /// The response whose head this is.
    package let response: StubResponse
    /// The length of the body that follows, when known.
    package let bodyLength: Int?
    /// The stub whose previous head ``httpURLResponse`` may hand out again
    /// (``StubDescriptor/head(_:)``); `nil`: built afresh.
    var reusingHeadsOf: StubDescriptor?
    /// That stub's previous head, read when the request took its activation.
    var keptHead: StubDescriptor.KeptHead?

    /// The status the head sends.
    package var statusCode: Int { response.statusCode }

    /// The body length the head announces: the stub's own `Content-Length`, else the body's
    /// length unless the stub sends `Transfer-Encoding`; `nil` when nothing is announced.
    package var announcedLength: Int? {
        if let declared = response.declaredContentLength { return declared }
        if response.headers.isEmpty { return bodyLength }
        if response.headers["Transfer-Encoding"] != nil { return nil }
        return bodyLength
    }

    /// The header fields in the order the stub gives them, repeated fields as separate
    /// fields (one `Set-Cookie` per cookie), then `Content-Length` if the stub gives none.
    package var fields: [(name: String, value: String)] {
        var fields = Array(response.headers)
        if response.declaredContentLength == nil, response.headers["Transfer-Encoding"] == nil, let bodyLength {
            fields.append((name: "Content-Length", value: String(bodyLength)))
        }
        return fields
    }

    /// The head as Foundation's loading system takes it (cookies joined in one field);
    /// `nil` when `HTTPURLResponse` refuses the status.
    package var httpURLResponse: HTTPURLResponse? {
        if let stub = reusingHeadsOf { return stub.head(self, kept: keptHead) }
        return response.head(for: url, bodyLength: bodyLength)
    }

    /// What makes two heads the same `HTTPURLResponse`.
    struct Key: Equatable {
        let url: URL
        let statusCode: Int
        let httpVersion: String
        let headers: HeaderFields
        let bodyLength: Int?
    }

    var key: Key {
        Key(url: url, statusCode: response.statusCode, httpVersion: response.httpVersion, headers: response.headers, bodyLength: bodyLength)
    }
}
