import Foundation

extension WireMockMapping {
    /// The `request` object of a mapping: what a request must be for the mapping to answer it.
    /// Every member is optional; a missing one matches anything.
    ///
    /// ```swift
    /// var request = WireMockMapping.RequestPattern(method: "GET", url: .urlPath("/users"))
    /// request.headers["Accept"] = .single(.contains("json"))
    /// ```
    public struct RequestPattern: Sendable, Hashable {
        /// `method`: an HTTP method, or `ANY` (the default).
        public var method: String
        /// `url`, `urlPattern`, `urlPath`, `urlPathPattern` or `urlPathTemplate`; `nil` for any URL.
        public var url: URLMatch?
        /// `scheme`: `http` or `https`.
        public var scheme: String?
        /// `host`: a pattern for the host name.
        public var host: StringValuePattern?
        /// `port`.
        public var port: Int?
        /// `pathParameters`: patterns for the variables of a ``URLMatch/urlPathTemplate(_:)``.
        public var pathParameters: [String: StringValuePattern]
        /// `queryParameters`, by name.
        public var queryParameters: [String: MultiValuePattern]
        /// `headers`, by name (compared without case, as HTTP names are).
        public var headers: [String: MultiValuePattern]
        /// `cookies`, by name.
        public var cookies: [String: StringValuePattern]
        /// `formParameters`: fields of an `application/x-www-form-urlencoded` body, by name.
        public var formParameters: [String: MultiValuePattern]
        /// `basicAuthCredentials` (`basicAuth` is read too): an `Authorization: Basic` header.
        public var basicAuthCredentials: BasicCredentials?
        /// `bodyPatterns`: every pattern must match the body.
        public var bodyPatterns: [BodyPattern]

        /// A pattern; every member left out matches anything.
        public init(
            method: String = "ANY", url: URLMatch? = nil, scheme: String? = nil, host: StringValuePattern? = nil, port: Int? = nil,
            pathParameters: [String: StringValuePattern] = [:], queryParameters: [String: MultiValuePattern] = [:],
            headers: [String: MultiValuePattern] = [:], cookies: [String: StringValuePattern] = [:],
            formParameters: [String: MultiValuePattern] = [:], basicAuthCredentials: BasicCredentials? = nil, bodyPatterns: [BodyPattern] = []
        ) {
            self.method = method
            self.url = url
            self.scheme = scheme
            self.host = host
            self.port = port
            self.pathParameters = pathParameters
            self.queryParameters = queryParameters
            self.headers = headers
            self.cookies = cookies
            self.formParameters = formParameters
            self.basicAuthCredentials = basicAuthCredentials
            self.bodyPatterns = bodyPatterns
        }
    }

    /// How a mapping matches the URL. WireMock's URL is the path and query as the client sent
    /// them (`/users?page=2`), its path the part before `?`.
    public enum URLMatch: Sendable, Hashable {
        /// `url`: the path and query, exactly.
        case url(String)
        /// `urlPattern`: a regular expression the whole path and query match.
        case urlPattern(String)
        /// `urlPath`: the path, exactly.
        case urlPath(String)
        /// `urlPathPattern`: a regular expression the whole path matches.
        case urlPathPattern(String)
        /// `urlPathTemplate`: an RFC 6570 path template such as `/contacts/{contactId}`.
        case urlPathTemplate(String)

        static let members = ["url", "urlPattern", "urlPath", "urlPathPattern", "urlPathTemplate"]

        var member: String {
            switch self {
            case .url: return "url"
            case .urlPattern: return "urlPattern"
            case .urlPath: return "urlPath"
            case .urlPathPattern: return "urlPathPattern"
            case .urlPathTemplate: return "urlPathTemplate"
            }
        }

        var text: String {
            switch self {
            case .url(let text), .urlPattern(let text), .urlPath(let text), .urlPathPattern(let text), .urlPathTemplate(let text): return text
            }
        }
    }

    /// `basicAuthCredentials`: the user name and password of an `Authorization: Basic` header.
    public struct BasicCredentials: Sendable, Hashable, Codable {
        /// The user name.
        public var username: String
        /// The password.
        public var password: String

        /// Credentials for `username` and `password`.
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        /// Reads `{"username": …, "password": …}`, refusing other members.
        public init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: MemberKey.self)
            try object.refuseUnknownMembers(of: "basic credentials", known: ["username", "password"])
            username = try object.decode(String.self, forKey: MemberKey("username"))
            password = try object.decode(String.self, forKey: MemberKey("password"))
        }

        /// The `Authorization` header value these credentials make: `Basic <base64>`.
        public var authorizationHeader: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
    }
}

extension WireMockMapping.RequestPattern: Codable {
    static let members = [
        "method", "url", "urlPattern", "urlPath", "urlPathPattern", "urlPathTemplate", "scheme", "host", "port", "pathParameters",
        "queryParameters", "headers", "cookies", "formParameters", "basicAuthCredentials", "basicAuth", "bodyPatterns",
    ]

    static let unsupported: [String: (wireMock: String, instead: String)] = [
        "multipartPatterns": ("matches against the parts of a multipart body", "URLStubs does not read multipart patterns in mappings yet"),
        "customMatcher": (
            "hands to a Java extension registered with the server", "there is no JVM here: match with the members WireMock has built in"
        ),
        "clientIp": ("compares with the client's IP address", "a stub inside the app has no client address; remove it"),
    ]

    /// Reads the `request` object, refusing members WireMock does not have (or URLStubs does not serve).
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        try object.refuseUnknownMembers(of: "the request", known: Self.members, unsupported: Self.unsupported)
        let urls = WireMockMapping.URLMatch.members.filter(object.has)
        if urls.count > 1 {
            throw MappingProblem.refused(
                at: decoder.codingPath + [MemberKey(urls[1])],
                "one URL matcher, found \(urls.map { "\"\($0)\"" }.joined(separator: " and ")); WireMock would use only \"\(urls[0])\" "
                    + "and ignore the others: keep one")
        }
        var url: WireMockMapping.URLMatch?
        if let name = urls.first {
            let text = try object.decode(String.self, forKey: MemberKey(name))
            let path = decoder.codingPath + [MemberKey(name)]
            switch name {
            case "url": url = .url(text)
            case "urlPattern":
                try RegexCache.validate(text, at: path)
                url = .urlPattern(text)
            case "urlPath": url = .urlPath(text)
            case "urlPathPattern":
                try RegexCache.validate(text, at: path)
                url = .urlPathPattern(text)
            default:
                do {
                    _ = try PathTemplate(text)
                } catch {
                    throw MappingProblem.refused(at: path, "an RFC 6570 path template, but \(error); WireMock refuses it too")
                }
                url = .urlPathTemplate(text)
            }
        }
        if object.has("basicAuth"), object.has("basicAuthCredentials") {
            throw MappingProblem.refused(
                at: decoder.codingPath + [MemberKey("basicAuth")], "one of \"basicAuth\" and \"basicAuthCredentials\", found both")
        }
        self.init(
            method: try object.value("method") ?? "ANY", url: url, scheme: try object.value("scheme"), host: try object.value("host"),
            port: try object.value("port"), pathParameters: try object.value("pathParameters") ?? [:],
            queryParameters: try object.value("queryParameters") ?? [:], headers: try object.value("headers") ?? [:],
            cookies: try object.value("cookies") ?? [:], formParameters: try object.value("formParameters") ?? [:],
            basicAuthCredentials: try object.value("basicAuthCredentials") ?? object.value("basicAuth"),
            bodyPatterns: try object.value("bodyPatterns") ?? [])
        if !pathParameters.isEmpty {
            guard case .urlPathTemplate(let text)? = url, let template = try? PathTemplate(text) else {
                throw MappingProblem.refused(
                    at: decoder.codingPath + [MemberKey("pathParameters")],
                    "\"pathParameters\" beside a \"urlPathTemplate\" that names them; WireMock ignores them without one")
            }
            if let stray = pathParameters.keys.sorted().first(where: { !template.variables.contains($0) }) {
                throw MappingProblem.refused(
                    at: decoder.codingPath + [MemberKey("pathParameters"), MemberKey(stray)],
                    "a variable of \(text) (\(template.variables.joined(separator: ", "))), found \"\(stray)\"; WireMock would never match it")
            }
        }
    }

    /// Writes the `request` object as WireMock writes it.
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: MemberKey.self)
        if let url { try object.put(url.text, url.member) }
        try object.put(method, "method")
        try object.put(scheme, "scheme")
        try object.put(host, "host")
        try object.put(port, "port")
        if !pathParameters.isEmpty { try object.put(pathParameters, "pathParameters") }
        if !headers.isEmpty { try object.put(headers, "headers") }
        if !queryParameters.isEmpty { try object.put(queryParameters, "queryParameters") }
        if !formParameters.isEmpty { try object.put(formParameters, "formParameters") }
        if !cookies.isEmpty { try object.put(cookies, "cookies") }
        try object.put(basicAuthCredentials, "basicAuthCredentials")
        if !bodyPatterns.isEmpty { try object.put(bodyPatterns, "bodyPatterns") }
    }
}
