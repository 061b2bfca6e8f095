import Foundation
import URLStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OpenAPIDocument {
    /// Checks every stub of `registry` whose responses are known without a request (the
    /// one-line stubs and response sequences) against the operation its matcher's method and
    /// path select. No request is made. Stubs that answer with a closure are listed in
    /// ``ContractReport/notChecked``.
    public func check(_ registry: StubRegistry) -> ContractReport {
        let scrubbing = registry.scrubbing
        var findings: [ContractReport.Finding] = []
        var notChecked: [String] = []
        var checked = 0
        let constant = registry.constantAnswers
        let constantStubs = Set(constant.map { ObjectIdentifier($0.stub) })
        for stub in registry.stubs where !constantStubs.contains(ObjectIdentifier(stub)) {
            notChecked.append("\(stub): its response is built by a closure (checked when served, with checkContract)")
        }
        for (stub, responses) in constant {
            let (method, path) = stub.requiredMethodAndPath
            if let operation = operations.first(where: { Self.matcherDescription(of: $0) == stub.matcher.description }) {
                // A stub built with matcher(for:): its operation is known without a path.
                for response in responses {
                    checked += 1
                    findings += responseFindings(response, operation: operation, subject: "\(stub)", location: stub.location, scrubbing: scrubbing)
                }
                continue
            }
            guard let method, let path else {
                notChecked.append("\(stub): its matcher does not name one method and one exact path")
                continue
            }
            for response in responses {
                checked += 1
                findings += responseFindings(
                    response, method: method, path: path, subject: "\(stub)", location: stub.location, scrubbing: scrubbing)
            }
        }
        return ContractReport(source: source, findings: findings, notChecked: notChecked, checkedCount: checked)
    }

    /// Checks the response of every stub of a scenario (its name, where it was declared, the
    /// method and path it requires, its responder) against the operation its method and path
    /// select. No request is made: each stub's responder is called once with a request made
    /// from its method and path (`:id` becomes `1`). URLStubsOpenAPITesting's
    /// `check(_: Scenario)` passes a scenario's stubs here.
    package func check(
        stubs: [(name: String?, location: StubLocation, method: String?, path: String?, respond: @Sendable (StubRequest) throws -> StubResponse)],
        ofScenario scenarioName: String
    ) -> ContractReport {
        var findings: [ContractReport.Finding] = []
        var notChecked: [String] = []
        var checked = 0
        for stub in stubs {
            let subject = stub.name.map { "\"\($0)\"" } ?? "a stub of \(scenarioName)"
            guard let (method, path) = Self.methodAndPath(method: stub.method, path: stub.path, name: stub.name) else {
                notChecked.append("\(subject) (\(stub.location)): its method and path are unknown without a request")
                continue
            }
            guard let url = URL(string: "https://contract.check" + path) else {
                notChecked.append("\(subject): \(path) does not make a URL")
                continue
            }
            var request = URLRequest(url: url)
            request.httpMethod = method
            let response: StubResponse
            do {
                response = try stub.respond(StubRequest(request))
            } catch {
                notChecked.append("\(subject): building its response threw \(error)")
                continue
            }
            checked += 1
            findings += responseFindings(response, method: method, path: path, subject: subject, location: stub.location)
        }
        return ContractReport(source: source, findings: findings, notChecked: notChecked, checkedCount: checked)
    }

    /// A recorded exchange as a HAR entry holds it, for ``check(recorded:inFileNamed:)``.
    package struct RecordedExchange: Sendable {
        package var method: String
        package var url: URL
        package var requestHeaders: HeaderFields
        package var requestBody: Data?
        package var requestMimeType: String?
        package var status: Int
        package var responseHeaders: HeaderFields
        package var responseBody: Data?
        package var responseMimeType: String
        package var failure: String?

        /// An exchange.
        package init(
            method: String, url: URL, requestHeaders: HeaderFields, requestBody: Data?, requestMimeType: String?, status: Int,
            responseHeaders: HeaderFields, responseBody: Data?, responseMimeType: String, failure: String?
        ) {
            (self.method, self.url, self.requestHeaders, self.requestBody, self.requestMimeType) = (
                method, url, requestHeaders, requestBody, requestMimeType
            )
            (self.status, self.responseHeaders, self.responseBody, self.responseMimeType, self.failure) = (
                status, responseHeaders, responseBody, responseMimeType, failure
            )
        }
    }

    /// Checks every recorded exchange (a HAR file's entries, named by `fileName`), request and
    /// response, against the document. URLStubsOpenAPITesting's `check(harAt:)` reads a HAR
    /// file into these.
    package func check(recorded entries: [RecordedExchange], inFileNamed fileName: String) -> ContractReport {
        var findings: [ContractReport.Finding] = []
        var notChecked: [String] = []
        var checked = 0
        for (position, entry) in entries.enumerated() {
            let subject = "\(fileName) entry \(position): \(entry.method) \(ContractChecker.printable(entry.url))"
            if let failure = entry.failure {
                notChecked.append("\(subject): recorded a failure (\(failure)), not a response")
                continue
            }
            checked += 1
            var requestHeaders = entry.requestHeaders
            var responseHeaders = entry.responseHeaders
            if !responseHeaders.contains(name: "Content-Type"), !entry.responseMimeType.isEmpty {
                responseHeaders["Content-Type"] = entry.responseMimeType
            }
            if let mime = entry.requestMimeType, !requestHeaders.contains(name: "Content-Type") {
                requestHeaders["Content-Type"] = mime
            }
            let exchange = HTTPExchange(
                method: entry.method.uppercased(), url: entry.url, requestHeaders: requestHeaders, requestBody: entry.requestBody,
                status: entry.status, responseHeaders: responseHeaders, responseBody: entry.responseBody)
            findings += violations(of: exchange).map { ContractReport.Finding(subject: subject, location: nil, violation: $0) }
        }
        return ContractReport(source: source, findings: findings, notChecked: notChecked, checkedCount: checked)
    }

    private func responseFindings(
        _ response: StubResponse, method: String, path: String, subject: String, location: StubLocation, scrubbing: Scrubbing = .default
    ) -> [ContractReport.Finding] {
        guard response.sendsHTTPResponse else { return [] }
        var exchange = Self.exchange(of: response, method: method, path: path)
        exchange.scrubbing = scrubbing
        return violations(of: exchange, checksRequest: false).map { ContractReport.Finding(subject: subject, location: location, violation: $0) }
    }

    /// The findings of `response` against `operation` itself, whatever path it is stubbed on.
    private func responseFindings(
        _ response: StubResponse, operation: OpenAPIOperation, subject: String, location: StubLocation, scrubbing: Scrubbing
    ) -> [ContractReport.Finding] {
        guard response.sendsHTTPResponse else { return [] }
        var exchange = Self.exchange(of: response, method: operation.method, path: operation.template.filled { _ in "1" })
        exchange.scrubbing = scrubbing
        return responseViolations(exchange, operation).map { ContractReport.Finding(subject: subject, location: location, violation: $0) }
    }

    /// A request with `method` and `path` answered by `response`, as the checks read it.
    static func exchange(of response: StubResponse, method: String, path: String) -> HTTPExchange {
        var body = response.body.data
        if body == nil, let file = response.body.fileURL { body = try? Data(contentsOf: file) }
        if response.bodyBytesSent != nil { body = nil }
        return HTTPExchange(
            method: method, url: URL(string: "https://contract.check" + path), requestHeaders: [:], requestBody: nil,
            status: response.statusCode, responseHeaders: response.headers, responseBody: body)
    }

    /// The method and path a stub requires, or those its scenario name says (`(GET /pets/:id)`,
    /// a parameter filled with `1`).
    static func methodAndPath(method: String?, path: String?, name: String?) -> (String, String)? {
        if let method, let path { return (method, path) }
        guard let name, name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return nil }
        let inside = name[name.index(after: open)..<name.index(before: name.endIndex)]
        let parts = inside.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[1].hasPrefix("/") else { return nil }
        let filled = parts[1].split(separator: "/", omittingEmptySubsequences: false).map { $0.hasPrefix(":") ? "1" : String($0) }
        return (method ?? String(parts[0]), filled.joined(separator: "/"))
    }
}
