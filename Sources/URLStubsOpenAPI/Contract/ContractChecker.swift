import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// Checks every exchange this registry finishes from now on against `document`; what
    /// breaks it is reported by `verify()` (and so by the
    /// `.stubbed` trait and `makeStubRegistry()`), at the line of the stub that answered.
    ///
    /// ```swift
    /// let contract = try OpenAPIDocument(contentsOf: openAPIURL)
    /// let registry = StubRegistry()
    /// registry.checkContract(contract)
    /// registry.stub(.get, "https://api.shop.test/pets/1", json: ["id": 1])   // no "name": reported
    /// // … the app loads the pet …
    /// #expect(registry.verify().isSuccess)
    /// ```
    ///
    /// Each finished exchange is checked: a stub's, a fixture's, a scenario's, a replayed HAR
    /// entry's and a passthrough's (what the network answered). The request must select a
    /// documented path and method; its path, query and header parameters and its JSON body
    /// must fit; the status must be documented (or fall under a range or `default`), the
    /// `Content-Type` must be listed, and a JSON body must validate against its schema. A
    /// request that failed or was cancelled is not checked, nor the body of a streamed response.
    ///
    /// Exchanges are only kept as they finish; the checks run when `verify()` is called, off
    /// the loading context.
    public func checkContract(_ document: OpenAPIDocument) {
        addExchangeChecker(ContractChecker(document: document) { [weak self] in self?.scrubbing ?? .default })
    }

    /// Reads the document at `url` (JSON or YAML) and checks every exchange against it: see
    /// ``checkContract(_:)``.
    public func checkContract(openAPI url: URL) throws {
        checkContract(try OpenAPIDocument(contentsOf: url))
    }
}

/// Keeps each finished exchange (cheaply, on the loading context) and checks them when the
/// registry is verified.
final class ContractChecker: ExchangeChecker, @unchecked Sendable {
    /// Exchanges past this many, not yet checked, are counted and reported, not kept.
    static let pendingLimit = 10_000

    let document: OpenAPIDocument
    /// The registry's `Scrubbing`, read when checking: its secrets print as
    /// `<scrubbed>`.
    let scrubbing: @Sendable () -> Scrubbing
    private let lock = NSLock()
    private var pending: [FinishedExchange] = []
    private var dropped = 0
    /// Problems found so far, each distinct one once, with how often it came.
    private var found: [(problem: VerificationProblem, count: Int)] = []
    private var index: [String: Int] = [:]

    init(document: OpenAPIDocument, scrubbing: @escaping @Sendable () -> Scrubbing) {
        self.document = document
        self.scrubbing = scrubbing
    }

    func exchangeFinished(_ exchange: FinishedExchange) {
        lock.lock()
        if pending.count < Self.pendingLimit {
            pending.append(exchange)
        } else {
            dropped += 1
        }
        lock.unlock()
    }

    func verificationProblems() -> [VerificationProblem] {
        lock.lock()
        let batch = pending
        pending = []
        lock.unlock()
        var problems: [VerificationProblem] = []
        let scrubbing = batch.isEmpty ? .default : self.scrubbing()
        for exchange in batch { problems += check(exchange, scrubbing: scrubbing) }
        lock.lock()
        defer { lock.unlock() }
        for problem in problems {
            let key = problem.message + "\u{0}" + (problem.location?.description ?? "")
            if let position = index[key] {
                found[position].count += 1
            } else {
                index[key] = found.count
                found.append((problem, 1))
            }
        }
        var result = found.map { entry -> VerificationProblem in
            guard entry.count > 1 else { return entry.problem }
            return .found(
                summary: entry.problem.summary + " (\(entry.count) times)", details: entry.problem.details, stub: entry.problem.stub,
                count: entry.count)
        }
        if dropped > 0 {
            result.append(
                .found(
                    summary:
                        "\(dropped) exchanges beyond the first \(Self.pendingLimit) were not checked against \(document.source) (verify more often)",
                    stub: nil, count: dropped))
        }
        return result
    }

    private func check(_ finished: FinishedExchange, scrubbing: Scrubbing) -> [VerificationProblem] {
        let request = finished.request
        let response = finished.response
        var body: Data? = response.body.data
        if body == nil, let file = response.body.fileURL { body = try? Data(contentsOf: file) }
        // A body cut on purpose (a truncated download) is a fault the test injects, not a claim.
        if response.bodyBytesSent != nil { body = nil }
        let exchange = HTTPExchange(
            method: request.method, url: request.url, requestHeaders: HeaderFields(request.urlRequest.allHTTPHeaderFields ?? [:]),
            requestBody: request.body, isRequestBodyKnown: finished.isRequestBodyKnown, status: response.statusCode,
            responseHeaders: response.headers, responseBody: body, scrubbing: scrubbing)
        let violations = document.violations(of: exchange)
        guard !violations.isEmpty else { return [] }
        let target = "\(request.method) \(Self.printable(request.url))"
        let answerer: String
        if let stub = finished.stub {
            answerer = finished.cameFromNetwork ? "the network's answer (passed through by \(stub))" : "\(stub)"
        } else {
            answerer = "the network's answer"
        }
        return violations.map { violation in
            let summary =
                violation.isAboutRequest
                ? "the app's request \(target) (answered by \(answerer)) broke the OpenAPI contract: \(violation)"
                : "\(answerer) broke the OpenAPI contract: \(violation)"
            return .found(summary: summary, details: "request: \(target)\ndocument: \(document.source)", stub: finished.stub)
        }
    }

    /// Scheme, host and path: a query may hold secrets, so it is left out.
    static func printable(_ url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "<no URL>" }
        let hadQuery = components.query != nil
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return (components.string ?? url.path) + (hadQuery ? "?…" : "")
    }
}
