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
/// Secure by default: ``default`` scrubs the credential headers (`Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, `X-Auth-Token`, `Api-Key`) and
/// the common credential names (`token`, `access_token`, `refresh_token`, `id_token`,
/// `api_key`, `apikey`, `password`, `secret`, `client_secret`) in query strings, form bodies
/// (`application/x-www-form-urlencoded`) and JSON bodies at any depth, and `key` in query
/// strings and form bodies (where `?key=` is usually an API key; a JSON `"key"` is usually a
/// feature flag's or a setting's name). A program reads the lists in
/// `Scrubbing.default.headers`, `.queryParameters` and `.jsonFields`. Names compare without
/// regard to case. Requests and responses are scrubbed alike: headers, query and bodies.
///
/// The same lists reach the other places a secret travels: the formats of the modules in use
/// (with `URLStubsMultipart`, a form part named in ``queryParameters``, its whole content, a
/// file's too; with `URLStubsGraphQL`, an argument or input field named in ``jsonFields`` and
/// written inline in a document: `login(password: "…")` becomes
/// `login(password: "<scrubbed>")`), and the user and password of a URL
/// (`https://user:password@host/` becomes `https://<scrubbed>:<scrubbed>@host/`), which are
/// the `Authorization` header's other spelling and scrubbed while ``headers`` lists it.
///
/// A cookie keeps its name; only its value is scrubbed. A JSON body keeps its shape, so a
/// replayed response still decodes: under a listed name, each string becomes the placeholder and
/// each number `0`; booleans, `null`, member names and nested objects and arrays stay
/// (`"token": {"value": "<scrubbed>", "expiresIn": 0}`).
///
/// Opt out of a rule with ``removing(headers:queryParameters:jsonFields:)``: each list is one
/// rule, so a name scrubbed in both the query and JSON bodies is removed from each it names.
///
/// ```swift
/// // `key` is a public cache key in this API, not a secret: kept in the URL, and in a body
/// // that echoes it.
/// let scrubbing = Scrubbing.default.removing(queryParameters: ["key"])
/// ```
///
/// Besides the named headers, query parameters, form fields and JSON members, every copy of
/// their values is replaced wherever it appears (a server that echoes the request, an error
/// page quoting the token), also percent-encoded (`SECRET%2BKEY%2FB64%3D`) and base64-encoded,
/// and the user and password of a `Basic` credential. A value shorter than four characters is
/// replaced only where it stands as a whole value (`"ab1"`, `key=ab1&`): replacing every `1`
/// would mangle the recording.
///
/// - Important: A registry's reports use ``StubRegistry/scrubbing``, which
///   `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)` sets; a
///   registry that only replays or stubs scrubs its reports with ``default`` unless told otherwise.
public struct Scrubbing: Sendable {
    /// Header names (case-insensitive) whose values are scrubbed, in requests and responses. A
    /// `Cookie` or `Set-Cookie` header keeps each cookie's name and attributes.
    public var headers: Set<String>
    /// Names (case-insensitive) whose values are scrubbed in the query string and in a form body
    /// (`application/x-www-form-urlencoded`), which uses the query's syntax.
    public var queryParameters: Set<String>
    /// JSON member names (case-insensitive) whose values are scrubbed wherever they appear in a
    /// body, at any depth, keeping the body's shape (strings become the placeholder, numbers
    /// `0`).
    public var jsonFields: Set<String>
    /// What replaces a secret.
    public var placeholder: String

    /// The credential headers scrubbed by default: ``default``'s ``headers``.
    @usableFromInline static let defaultHeaders: Set<String> = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Auth-Token", "Api-Key",
    ]
    /// The credential names scrubbed by default in JSON bodies: ``default``'s ``jsonFields``.
    @usableFromInline static let defaultJSONFields: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "password", "secret", "client_secret",
    ]
    /// The credential names scrubbed by default in query strings and form bodies: ``default``'s
    /// ``queryParameters``, the JSON names and `key`.
    @usableFromInline static let defaultQueryParameters: Set<String> = defaultJSONFields.union(["key"])

    /// The credential headers, and the credential names in queries, form bodies and JSON
    /// bodies, listed in the type's overview (``Scrubbing``).
    public static let `default` = Scrubbing()
    /// Nothing is scrubbed.
    public static let nothing = Scrubbing(headers: [], queryParameters: [], jsonFields: [])

    /// A policy; each list starts from ``default``'s unless you pass another.
    public init(
        headers: Set<String> = Scrubbing.defaultHeaders, queryParameters: Set<String> = Scrubbing.defaultQueryParameters,
        jsonFields: Set<String> = Scrubbing.defaultJSONFields, placeholder: String = "<scrubbed>"
    ) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = queryParameters
        self.jsonFields = jsonFields
        self.placeholder = placeholder
    }

    /// This policy plus more header names, query (and form) parameters and JSON fields.
    public func adding(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = []) -> Scrubbing {
        var copy = self
        copy.headers.formUnion(headers.map { $0.lowercased() })
        copy.queryParameters.formUnion(queryParameters)
        copy.jsonFields.formUnion(jsonFields)
        return copy
    }

    /// This policy without some of its rules (names compare without regard to case): the way to
    /// keep one value the defaults scrub. Each list is one rule: a name removed from the query
    /// parameters is still scrubbed in JSON bodies if ``jsonFields`` lists it.
    ///
    /// ```swift
    /// // ?key= is a public cache key here, not a secret: the URL keeps it, and so does a body
    /// // that echoes it.
    /// registry.scrubbing = .default.removing(queryParameters: ["key"])
    /// ```
    public func removing(headers: Set<String> = [], queryParameters: Set<String> = [], jsonFields: Set<String> = []) -> Scrubbing {
        var copy = self
        let headerNames = Set(headers.map { $0.lowercased() })
        let queryNames = Set(queryParameters.map { $0.lowercased() })
        let fieldNames = Set(jsonFields.map { $0.lowercased() })
        copy.headers = copy.headers.filter { !headerNames.contains($0.lowercased()) }
        copy.queryParameters = copy.queryParameters.filter { !queryNames.contains($0.lowercased()) }
        copy.jsonFields = copy.jsonFields.filter { !fieldNames.contains($0.lowercased()) }
        return copy
    }

    /// The names as compared: lower-cased.
    private var queryNames: Set<String> { Set(queryParameters.map { $0.lowercased() }) }
    var fieldNames: Set<String> { Set(jsonFields.map { $0.lowercased() }) }

    /// `true` when `name` is a scrubbed query or form parameter.
    package func scrubsParameter(_ name: String) -> Bool {
        !queryParameters.isEmpty && queryNames.contains(name.lowercased())
    }

    func scrub(_ headers: HeaderFields) -> HeaderFields {
        HeaderFields(
            headers.map { header -> HeaderFields.Field in
                let name = header.name.lowercased()
                guard self.headers.contains(name) else { return header }
                if name == "cookie" || name == "set-cookie" {
                    return (name: header.name, value: scrubCookies(header.value, isSetCookie: name == "set-cookie"))
                }
                return (name: header.name, value: placeholder)
            })
    }

    /// `a=<scrubbed>; b=<scrubbed>` for a `Cookie` header; `session=<scrubbed>; Path=/` for
    /// each line of a `Set-Cookie` header (attributes are not secret). A part without a name is
    /// scrubbed whole.
    private func scrubCookies(_ value: String, isSetCookie: Bool) -> String {
        func scrubPair(_ pair: Substring) -> String {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else { return placeholder }
            return trimmed[..<equals] + "=" + placeholder
        }
        if isSetCookie {
            // Firefox exports repeated headers as one value with a line per header.
            return value.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                let parts = line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = parts.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else { return String(line) }
                return scrubPair(first) + (parts.count > 1 ? ";" + parts[1] : "")
            }.joined(separator: "\n")
        }
        return value.split(separator: ";").map(scrubPair).joined(separator: "; ")
    }

    /// `url` with its listed query parameters, what a registered format scrubs in a parameter's
    /// value (``ScrubbingStrategy``), and its credentials (`user:password@`) scrubbed.
    func scrub(_ url: URL) -> URL {
        scrubbingCredentials(of: scrubbingQuery(of: url))
    }

    private func scrubbingQuery(of url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = components.queryItems else { return url }
        var changed = false
        let strategies = RequestStrategies.scrubbing
        let scrubbed = items.map { item -> URLQueryItem in
            if scrubsParameter(item.name) {
                changed = true
                return URLQueryItem(name: item.name, value: placeholder)
            }
            guard let value = item.value else { return item }
            var kept = value
            for strategy in strategies { kept = strategy.scrub(queryValue: kept, named: item.name, with: self) ?? kept }
            guard kept != value else { return item }
            changed = true
            return URLQueryItem(name: item.name, value: kept)
        }
        guard changed else { return url }
        components.queryItems = scrubbed
        return components.url ?? url
    }

    /// The body with its secret JSON members (their shape kept), or, for a form body, its listed
    /// fields replaced, and what a registered format scrubs in it (``ScrubbingStrategy``); byte
    /// for byte the same body when it holds none (a replay then serves exactly what the server
    /// sent).
    package func scrub(_ body: Data?, mimeType: String? = nil) -> Data? {
        guard let body else { return nil }
        if Self.isForm(mimeType) { return scrubForm(body) }
        let strategies = RequestStrategies.scrubbing
        for strategy in strategies {
            if let scrubbed = strategy.scrub(body: body, mimeType: mimeType, with: self) { return scrubbed }
        }
        let names = fieldNames
        let holdsMember = Self.mayHoldMember(of: names, in: body)
        let formats = strategies.filter { $0.mayHoldSecrets(inJSONBody: body, with: self) }
        guard holdsMember || !formats.isEmpty, let json = try? JSONValue(data: body) else { return body }
        var scrubbed = holdsMember ? scrub(json, names: names) : json
        for format in formats { scrubbed = format.scrub(json: scrubbed, with: self) }
        return scrubbed == json ? body : scrubbed.serialized()
    }

    static func isForm(_ mimeType: String?) -> Bool {
        mimeType?.lowercased().contains("application/x-www-form-urlencoded") == true
    }

    /// A form body (`a=1&token=xyz`) with the values of scrubbed names replaced, the rest of its
    /// bytes untouched.
    private func scrubForm(_ body: Data) -> Data {
        guard !queryParameters.isEmpty, let text = String(data: body, encoding: .utf8) else { return body }
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let rawName = pair[..<equals]
            let name = rawName.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(rawName)
            guard scrubsParameter(name) else { return String(pair) }
            changed = true
            return rawName + "=" + placeholder
        }
        return changed ? Data(pairs.joined(separator: "&").utf8) : body
    }

    /// `(name, value)` of each parameter of a form body, decoded.
    static func formPairs(_ body: Data) -> [(String, String)] {
        guard let text = String(data: body, encoding: .utf8) else { return [] }
        return text.split(separator: "&").compactMap { pair in
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            func decoded(_ part: Substring) -> String {
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            return (decoded(pair[..<equals]), decoded(pair[pair.index(after: equals)...]))
        }
    }

    /// The exchange with every secret replaced: the named headers, query parameters, form fields
    /// and JSON members, and then any copy of their values found elsewhere (a server that echoes
    /// the request, an error page quoting the token, a session id in both a cookie and a body).
    /// A `Content-Length` header then gives the length of the body as stored.
    package func scrub(_ exchange: ExchangeParts) -> ExchangeParts {
        var copy = exchange
        copy.url = scrub(exchange.url)
        copy.requestHeaders = scrub(exchange.requestHeaders)
        copy.requestBody = scrub(exchange.requestBody, mimeType: exchange.requestMimeType)
        copy.responseHeaders = scrub(exchange.responseHeaders)
        copy.responseBody = scrub(exchange.responseBody, mimeType: exchange.responseMimeType) ?? exchange.responseBody
        let redactor = Redactor(secrets: secretValues(in: exchange), placeholder: placeholder)
        if !redactor.isEmpty {
            copy.url = URL(string: redactor.redact(copy.url.absoluteString)) ?? copy.url
            copy.requestHeaders = HeaderFields(copy.requestHeaders.map { (name: $0.name, value: redactor.redact($0.value)) })
            copy.responseHeaders = HeaderFields(copy.responseHeaders.map { (name: $0.name, value: redactor.redact($0.value)) })
            copy.requestBody = copy.requestBody.map(redactor.redact)
            copy.responseBody = redactor.redact(copy.responseBody)
        }
        if copy.requestBody != exchange.requestBody {
            copy.requestHeaders = Self.settingContentLength(copy.requestBody?.count ?? 0, in: copy.requestHeaders)
        }
        if copy.responseBody != exchange.responseBody {
            copy.responseHeaders = Self.settingContentLength(copy.responseBody.count, in: copy.responseHeaders)
        }
        return copy
    }

    /// `headers` with any `Content-Length` giving `length`: a scrubbed body is shorter or longer
    /// than the one the server declared.
    private static func settingContentLength(_ length: Int, in headers: HeaderFields) -> HeaderFields {
        HeaderFields(headers.map { $0.name.lowercased() == "content-length" ? (name: $0.name, value: String(length)) : $0 })
    }

    /// What hides `request`'s secrets in a report about it.
    package func redactor(for request: StubRequest) -> Redactor {
        Redactor(secrets: secretValues(in: ExchangeParts(request)), placeholder: placeholder, hidingURLCredentials: scrubsURLCredentials)
    }
}
