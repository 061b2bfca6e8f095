import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What is removed from recordings before anything touches disk, and hidden in every report a
/// registry prints (near misses, ``StubRegistry/verify(includePassedThrough:)``, the journal,
/// errors).
///
/// Values are replaced by ``placeholder``; replay treats the placeholder as "any value", so a
/// scrubbed recording still matches the live requests that produced it.
///
/// Besides the named headers, query parameters and JSON members, every copy of their values is
/// replaced wherever it appears (a server that echoes the request, an error page quoting the
/// token), also percent-encoded (`SECRET%2BKEY%2FB64%3D`) and base64-encoded, and the user and
/// password of a `Basic` credential. A value shorter than four characters is replaced only
/// where it stands as a whole value (`"ab1"`, `key=ab1&`): replacing every `1` would mangle
/// the recording.
///
/// - Important: A registry's reports use ``StubRegistry/scrubbing``, which
///   ``StubRegistry/record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`` sets; a
///   registry that only replays or stubs and sees an `api_key` parameter must be told.
public struct Scrubbing: Sendable {
    /// Header names (case-insensitive) whose values are scrubbed, in requests and responses.
    public var headers: Set<String>
    /// Query parameter names whose values are scrubbed.
    public var queryParameters: Set<String>
    /// JSON member names whose values are scrubbed wherever they appear in a body.
    public var jsonFields: Set<String>
    /// What replaces a secret.
    public var placeholder: String

    /// `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization`.
    public static let `default` = Scrubbing()
    /// Nothing is scrubbed.
    public static let nothing = Scrubbing(headers: [], queryParameters: [], jsonFields: [])

    /// A policy; `headers` starts from the four credential headers unless you pass others.
    public init(
        headers: Set<String> = ["Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"],
        queryParameters: Set<String> = [], jsonFields: Set<String> = [], placeholder: String = "<scrubbed>"
    ) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = queryParameters
        self.jsonFields = jsonFields
        self.placeholder = placeholder
    }

    /// This policy plus more header names, query parameters and JSON fields.
    public func adding(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = []) -> Scrubbing {
        var copy = self
        copy.headers.formUnion(headers.map { $0.lowercased() })
        copy.queryParameters.formUnion(queryParameters)
        copy.jsonFields.formUnion(jsonFields)
        return copy
    }

    func scrub(_ headers: [HAREntry.Header]) -> [HAREntry.Header] {
        headers.map { self.headers.contains($0.name.lowercased()) ? .init(name: $0.name, value: placeholder) : $0 }
    }

    func scrub(_ url: URL) -> URL {
        guard !queryParameters.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.queryItems
        else { return url }
        components.queryItems = items.map { queryParameters.contains($0.name) ? URLQueryItem(name: $0.name, value: placeholder) : $0 }
        return components.url ?? url
    }

    /// The body with its secret JSON members replaced; byte for byte the same body when it
    /// holds none (a replay then serves exactly what the server sent).
    func scrub(_ body: Data?) -> Data? {
        guard let body, !jsonFields.isEmpty, let json = try? JSONValue(data: body) else { return body }
        let scrubbed = scrub(json)
        return scrubbed == json ? body : scrubbed.serialized()
    }

    private func scrub(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                Dictionary(
                    uniqueKeysWithValues: members.map { key, member in
                        (key, jsonFields.contains(key) ? .string(placeholder) : scrub(member))
                    }))
        case .array(let elements):
            return .array(elements.map(scrub))
        default:
            return value
        }
    }

    /// The entry with every secret replaced: the named headers, query parameters and JSON
    /// members, and then any copy of their values found elsewhere (a server that echoes the
    /// request, an error page quoting the token, a session id in both a cookie and a body).
    func scrub(_ entry: HAREntry) -> HAREntry {
        var copy = entry
        copy.url = scrub(entry.url)
        copy.requestHeaders = scrub(entry.requestHeaders)
        copy.requestBody = scrub(entry.requestBody)
        copy.responseHeaders = scrub(entry.responseHeaders)
        copy.responseBody = scrub(entry.responseBody) ?? entry.responseBody
        let redactor = Redactor(secrets: secretValues(in: entry), placeholder: placeholder)
        guard !redactor.isEmpty else { return copy }
        copy.url = URL(string: redactor.redact(copy.url.absoluteString)) ?? copy.url
        copy.requestHeaders = copy.requestHeaders.map { .init(name: $0.name, value: redactor.redact($0.value)) }
        copy.responseHeaders = copy.responseHeaders.map { .init(name: $0.name, value: redactor.redact($0.value)) }
        copy.requestBody = copy.requestBody.map(redactor.redact)
        copy.responseBody = redactor.redact(copy.responseBody)
        return copy
    }

    /// A live request as a recording of it would hold it: scrubbed URL, headers and body.
    func scrubbedEntry(of request: StubRequest) -> HAREntry {
        scrub(Self.entry(of: request))
    }

    /// A live request's URL and body as a recording of it would hold them.
    func scrubRequest(of request: StubRequest) -> (url: URL, body: Data?) {
        let scrubbed = scrubbedEntry(of: request)
        return (scrubbed.url, scrubbed.requestBody)
    }

    /// What hides `request`'s secrets in a report about it.
    func redactor(for request: StubRequest) -> Redactor {
        Redactor(secrets: secretValues(in: Self.entry(of: request)), placeholder: placeholder)
    }

    private static func entry(of request: StubRequest) -> HAREntry {
        let headers = (request.urlRequest.allHTTPHeaderFields ?? [:]).map { HAREntry.Header(name: $0.key, value: $0.value) }
        return HAREntry(
            method: request.method, url: request.url ?? URL(fileURLWithPath: "/"), requestHeaders: headers,
            requestBody: request.body, status: 0)
    }

    /// The values this policy scrubs in `entry`. An `Authorization` value also yields its
    /// credential alone (and a `Basic` one its decoded `user:password` and password), a cookie
    /// header each value.
    func secretValues(in entry: HAREntry) -> Set<String> {
        var secrets: Set<String> = []
        for header in entry.requestHeaders + entry.responseHeaders where headers.contains(header.name.lowercased()) {
            secrets.insert(header.value)
            let name = header.name.lowercased()
            if name == "authorization" || name == "proxy-authorization", let space = header.value.firstIndex(of: " ") {
                let credential = String(header.value[header.value.index(after: space)...]).trimmingCharacters(in: .whitespaces)
                secrets.insert(credential)
                if header.value[..<space].lowercased() == "basic", let decoded = Data(base64Encoded: credential),
                    let pair = String(data: decoded, encoding: .utf8)
                {
                    secrets.insert(pair)
                    if let colon = pair.firstIndex(of: ":") { secrets.insert(String(pair[pair.index(after: colon)...])) }
                }
            }
            if name == "cookie" || name == "set-cookie" {
                let pairs = header.value.split(separator: ";")
                // A Set-Cookie line's first pair is the cookie; the rest are its attributes.
                for pair in name == "cookie" ? pairs[...] : pairs.prefix(1) {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    secrets.insert(String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        if !queryParameters.isEmpty, let items = URLComponents(url: entry.url, resolvingAgainstBaseURL: false)?.queryItems {
            for item in items where queryParameters.contains(item.name) {
                if let value = item.value { secrets.insert(value) }
            }
        }
        if !jsonFields.isEmpty {
            for body in [entry.requestBody, entry.responseBody] {
                guard let body, let json = try? JSONValue(data: body) else { continue }
                collectJSONSecrets(json, into: &secrets)
            }
        }
        return secrets.filter { !$0.isEmpty && $0 != placeholder }
    }

    private func collectJSONSecrets(_ value: JSONValue, into secrets: inout Set<String>) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                if jsonFields.contains(key) {
                    switch member {
                    case .string(let text): secrets.insert(text)
                    case .integer(let number): secrets.insert(String(number))
                    default: break
                    }
                } else {
                    collectJSONSecrets(member, into: &secrets)
                }
            }
        case .array(let elements):
            for element in elements { collectJSONSecrets(element, into: &secrets) }
        default:
            break
        }
    }
}
