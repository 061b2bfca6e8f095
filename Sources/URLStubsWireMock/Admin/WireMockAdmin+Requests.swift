import Foundation
import URLStubs

extension WireMockAdmin {
    /// `/__admin/requests…`: the registry's journal as WireMock's serve events.
    func requests(_ verb: String, _ route: [String], query: String?, body: Data) throws -> Reply {
        let journal = registry.journal
        switch (verb, route.first) {
        case ("GET", nil):
            var entries = Array(journal.reversed())
            if let since = Self.queryValue("since", in: query).flatMap(Self.date) { entries = entries.filter { $0.date > since } }
            if let limit = Self.queryValue("limit", in: query).flatMap(Int.init) { entries = Array(entries.prefix(max(0, limit))) }
            return Self.json(
                .object([
                    "requests": .array(entries.map(serveEvent)), "meta": .object(["total": .integer(journal.count)]),
                    "requestJournalDisabled": false,
                ]))
        case ("DELETE", nil):
            registry.resetJournal()
            return Reply(status: 200)
        case ("POST", "reset") where route.count == 1:
            registry.resetJournal()
            return Reply(status: 200)
        case ("POST", "count") where route.count == 1:
            let matcher = try Self.requestMatcher(body)
            return Self.json(.object(["count": .integer(journal.filter { matcher.matches($0.request) }.count)]))
        case ("POST", "find") where route.count == 1:
            let matcher = try Self.requestMatcher(body)
            return Self.json(
                .object(["requests": .array(journal.filter { matcher.matches($0.request) }.map { Self.loggedRequest($0.request, date: $0.date) })]))
        case ("GET", "unmatched") where route.count == 1:
            return Self.json(
                .object([
                    "requests": .array(journal.filter(\.isUnmatched).map { Self.loggedRequest($0.request, date: $0.date) }),
                    "requestJournalDisabled": false,
                ]))
        default: return Self.notFound("/__admin/requests/" + route.joined(separator: "/"))
        }
    }

    /// The matcher of a WireMock request pattern in a body (`count`, `find`).
    static func requestMatcher(_ body: Data) throws -> RequestMatcher {
        _ = try parse(body)
        do {
            let pattern = try JSONDecoder().decode(WireMockMapping.RequestPattern.self, from: body)
            return RequestMatcher(try pattern.declared())
        } catch {
            throw AdminProblem(reply: Self.error(422, "Error parsing JSON", "expected a request pattern: \(error)", code: 10, pointer: "/"))
        }
    }

    /// A journal entry as WireMock's serve event.
    func serveEvent(_ entry: JournalEntry) -> JSONValue {
        var event: [String: JSONValue] = [
            "id": .string(UUID().uuidString.lowercased()), "request": Self.loggedRequest(entry.request, date: entry.date),
            "wasMatched": .bool(!entry.isUnmatched),
            "responseDefinition": .object(["status": .integer(entry.statusCode ?? 404)]),
        ]
        if let stub = entry.stub, let listed = listed().first(where: { $0.descriptor === stub }), let mapping = try? json(listed) {
            event["stubMapping"] = mapping
        }
        return .object(event)
    }

    /// A request as WireMock logs it.
    static func loggedRequest(_ request: StubRequest, date: Date) -> JSONValue {
        let view = WireMockRequestView(request)
        var headers: [String: JSONValue] = [:]
        for (name, value) in request.headers { headers[name] = .string(value) }
        var query: [String: JSONValue] = [:]
        for name in view.queryNames() {
            query[name] = .object(["key": .string(name), "values": .array(view.queryValues(name).map(JSONValue.string))])
        }
        let body = request.body ?? Data()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .object([
            "url": .string(view.url), "absoluteUrl": .string(request.url?.absoluteString ?? view.url), "method": .string(request.method),
            "clientIp": "127.0.0.1", "headers": .object(headers), "cookies": .object([:]), "queryParams": .object(query),
            "browserProxyRequest": false, "body": .string(String(decoding: body, as: UTF8.self)),
            "bodyAsBase64": .string(body.base64EncodedString()), "loggedDate": .integer(Int(date.timeIntervalSince1970 * 1000)),
            "loggedDateString": .string(formatter.string(from: date)),
        ])
    }

    static func queryValue(_ name: String, in query: String?) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name { return parts.count > 1 ? String(parts[1]).removingPercentEncoding : "" }
        }
        return nil
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
