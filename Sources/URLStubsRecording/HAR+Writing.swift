import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// Writing HAR 1.2 documents (the recorder's cassettes).
extension HAR {
    /// A HAR 1.2 document for `entries`, in their order, with sorted keys and two-space
    /// indentation so a re-recording diffs cleanly. Text bodies are written as text, others as
    /// base64.
    public static func write(_ entries: [HAREntry], creator: String = "URLStubs", version: String = "1.0") -> Data {
        let formatter = entryDateFormatter()
        let document: JSONValue = .object([
            "log": .object([
                "version": .string("1.2"),
                "creator": .object(["name": .string(creator), "version": .string(version)]),
                "entries": .array(entries.map { json(of: $0, dates: formatter) }),
            ])
        ])
        var data = document.serialized(pretty: true)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The formatter of `startedDateTime`, for `json(of:dates:)`: made once per document.
    static func entryDateFormatter() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// One entry of `log.entries` as HAR 1.2 writes it. `cookies` lists each cookie of the
    /// `Cookie` and `Set-Cookie` headers by name and value (a scrubbed one keeps its name).
    static func json(of entry: HAREntry, dates formatter: ISO8601DateFormatter) -> JSONValue {
        func headers(_ list: HeaderFields) -> JSONValue {
            .array(list.map { .object(["name": .string($0.name), "value": .string($0.value)]) })
        }
        func cookies(_ list: HeaderFields, named name: String) -> JSONValue {
            .array(
                list.filter { $0.name.lowercased() == name }.flatMap { header -> [JSONValue] in
                    // `Cookie: a=1; b=2`; a `Set-Cookie` value per line (Firefox joins repeats so).
                    header.value.split(separator: name == "cookie" ? ";" : "\n").compactMap { part in
                        let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                        guard let first = pair.first, !first.isEmpty else { return nil }
                        let value = pair.count > 1 ? String(pair[1].split(separator: ";").first ?? "") : ""
                        return .object(["name": .string(first), "value": .string(value)])
                    }
                })
        }
        func query(_ url: URL) -> JSONValue {
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            return .array(items.map { .object(["name": .string($0.name), "value": .string($0.value ?? "")]) })
        }
        var request: [String: JSONValue] = [
            "method": .string(entry.method), "url": .string(entry.url.absoluteString), "httpVersion": .string("HTTP/1.1"),
            "headers": headers(entry.requestHeaders), "queryString": query(entry.url),
            "cookies": cookies(entry.requestHeaders, named: "cookie"),
            "headersSize": .number(-1), "bodySize": .number(Double(entry.requestBody?.count ?? 0)),
        ]
        if let body = entry.requestBody {
            var post: [String: JSONValue] = ["mimeType": .string(entry.requestMimeType ?? "")]
            if let text = String(data: body, encoding: .utf8) {
                post["text"] = .string(text)
            } else {
                post["text"] = .string(body.base64EncodedString())
                post["encoding"] = .string("base64")
            }
            request["postData"] = .object(post)
        }
        var content: [String: JSONValue] = ["size": .number(Double(entry.responseBody.count)), "mimeType": .string(entry.responseMimeType)]
        if let text = String(data: entry.responseBody, encoding: .utf8) {
            content["text"] = .string(text)
        } else {
            content["text"] = .string(entry.responseBody.base64EncodedString())
            content["encoding"] = .string("base64")
        }
        let location = entry.responseHeaders.values(for: "Location").first ?? ""
        var response: [String: JSONValue] = [
            "status": .integer(entry.failure == nil ? entry.status : 0), "statusText": .string(entry.statusText),
            "httpVersion": .string(entry.httpVersion), "headers": headers(entry.responseHeaders),
            "cookies": cookies(entry.responseHeaders, named: "set-cookie"), "content": .object(content), "redirectURL": .string(location),
            "headersSize": .number(-1), "bodySize": .number(Double(entry.responseBody.count)),
        ]
        if let failure = entry.failure { response["_error"] = .string(failure) }
        return .object([
            "startedDateTime": .string(formatter.string(from: entry.startedDateTime)), "time": .number(entry.time),
            "request": .object(request), "response": .object(response), "cache": .object([:]),
            "timings": .object(["send": .number(0), "wait": .number(entry.time), "receive": .number(0)]),
        ])
    }

    /// One entry of `log.entries`, as ``read(_:source:)`` reads it; `path` names it in errors.
    static func entry(_ value: JSONValue, source: String, at path: String) throws -> HAREntry {
        try Reader(source: source, dates: DateReader()).entry(value, at: path)
    }
}
