import Foundation
import URLStubs

extension WireMockMapping {
    /// The `response` object of a mapping: what a matched request is answered with.
    ///
    /// ```swift
    /// var response = WireMockMapping.ResponseDefinition(status: 200, body: .json(["id": 1]))
    /// response.headers["Content-Type"] = ["application/json"]
    /// ```
    public struct ResponseDefinition: Sendable, Hashable {
        /// `status` (200 when left out).
        public var status: Int
        /// `statusMessage`: the reason phrase.
        public var statusMessage: String?
        /// `headers`: each name's values in order (a JSON array in the mapping sends the header
        /// once per value).
        public var headers: [String: [String]]
        /// `body`, `jsonBody`, `base64Body` or `bodyFileName`; `nil` for an empty body.
        public var body: Body?
        /// `fixedDelayMilliseconds`.
        public var fixedDelayMilliseconds: Int?
        /// `delayDistribution`.
        public var delayDistribution: DelayDistribution?
        /// `chunkedDribbleDelay`.
        public var chunkedDribbleDelay: ChunkedDribbleDelay?
        /// `fault`: a broken response instead of this one.
        public var fault: Fault?
        /// `proxyBaseUrl`: the request is forwarded to this origin.
        public var proxyBaseUrl: String?
        /// `proxyUrlPrefixToRemove`: removed from the path before it is forwarded.
        public var proxyUrlPrefixToRemove: String?
        /// `additionalProxyRequestHeaders`: added to the forwarded request.
        public var additionalProxyRequestHeaders: [String: String]
        /// `removeProxyRequestHeaders`: removed from the forwarded request.
        public var removeProxyRequestHeaders: [String]
        /// `transformers`: `response-template` renders the response as a template.
        public var transformers: [String]
        /// `transformerParameters`: values templates read as `parameters.<name>`.
        public var transformerParameters: [String: JSONValue]

        /// A response; every member left out is WireMock's default.
        public init(
            status: Int = 200, statusMessage: String? = nil, headers: [String: [String]] = [:], body: Body? = nil,
            fixedDelayMilliseconds: Int? = nil, delayDistribution: DelayDistribution? = nil, chunkedDribbleDelay: ChunkedDribbleDelay? = nil,
            fault: Fault? = nil, proxyBaseUrl: String? = nil, proxyUrlPrefixToRemove: String? = nil,
            additionalProxyRequestHeaders: [String: String] = [:], removeProxyRequestHeaders: [String] = [], transformers: [String] = [],
            transformerParameters: [String: JSONValue] = [:]
        ) {
            self.status = status
            self.statusMessage = statusMessage
            self.headers = headers
            self.body = body
            self.fixedDelayMilliseconds = fixedDelayMilliseconds
            self.delayDistribution = delayDistribution
            self.chunkedDribbleDelay = chunkedDribbleDelay
            self.fault = fault
            self.proxyBaseUrl = proxyBaseUrl
            self.proxyUrlPrefixToRemove = proxyUrlPrefixToRemove
            self.additionalProxyRequestHeaders = additionalProxyRequestHeaders
            self.removeProxyRequestHeaders = removeProxyRequestHeaders
            self.transformers = transformers
            self.transformerParameters = transformerParameters
        }

        /// The name of WireMock's templating transformer.
        public static let responseTemplate = "response-template"

        /// Whether the response is rendered as a template: `response-template` is among its
        /// ``transformers``, or `globalTemplating` is on (WireMock's `--global-response-templating`).
        public func isTemplated(globalTemplating: Bool = false) -> Bool {
            globalTemplating || transformers.contains(Self.responseTemplate)
        }
    }

    /// Where a response's body comes from.
    public enum Body: Sendable, Hashable {
        /// `body`: text, sent as UTF-8.
        case text(String)
        /// `jsonBody`: a JSON document, sent as compact JSON.
        case json(JSONValue)
        /// `base64Body`: bytes.
        case base64(Data)
        /// `bodyFileName`: a file under the folder's `__files/`, read when the response is sent.
        case file(String)
    }
}

extension WireMockMapping.ResponseDefinition: Codable {
    static let members = [
        "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName", "fixedDelayMilliseconds", "delayDistribution",
        "chunkedDribbleDelay", "fault", "proxyBaseUrl", "proxyUrlPrefixToRemove", "additionalProxyRequestHeaders", "removeProxyRequestHeaders",
        "transformers", "transformerParameters",
    ]

    static let unsupported: [String: (wireMock: String, instead: String)] = [
        "fromConfiguredStub": ("sets on responses it made itself, never in a mapping file", "remove it")
    ]

    /// Reads the `response` object, refusing members WireMock does not have.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        try object.refuseUnknownMembers(of: "the response", known: Self.members, unsupported: Self.unsupported)
        let bodies = ["body", "jsonBody", "base64Body", "bodyFileName"].filter(object.has)
        if bodies.count > 1 {
            throw MappingProblem.refused(
                at: decoder.codingPath + [MemberKey(bodies[1])],
                "one body, found \(bodies.map { "\"\($0)\"" }.joined(separator: " and ")); WireMock would send only one of them: keep one")
        }
        var body: WireMockMapping.Body?
        switch bodies.first {
        case "body": body = .text(try object.decode(String.self, forKey: MemberKey("body")))
        case "jsonBody": body = .json(try object.json("jsonBody") ?? .null)
        case "base64Body":
            let text = try object.decode(String.self, forKey: MemberKey("base64Body"))
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw MappingProblem.refused(at: decoder.codingPath + [MemberKey("base64Body")], "base64 text; WireMock refuses it too")
            }
            body = .base64(data)
        case "bodyFileName": body = .file(try object.decode(String.self, forKey: MemberKey("bodyFileName")))
        default: body = nil
        }
        var headers: [String: [String]] = [:]
        if object.has("headers") {
            let headerObject = try object.nestedContainer(keyedBy: MemberKey.self, forKey: MemberKey("headers"))
            for key in headerObject.allKeys {
                if let one = try? headerObject.decode(String.self, forKey: key) {
                    headers[key.stringValue] = [one]
                } else {
                    headers[key.stringValue] = try headerObject.decode([String].self, forKey: key)
                }
            }
        }
        self.init(
            status: try object.value("status") ?? 200, statusMessage: try object.value("statusMessage"), headers: headers, body: body,
            fixedDelayMilliseconds: try object.value("fixedDelayMilliseconds"), delayDistribution: try object.value("delayDistribution"),
            chunkedDribbleDelay: try object.value("chunkedDribbleDelay"), fault: try object.value("fault"),
            proxyBaseUrl: try object.value("proxyBaseUrl"), proxyUrlPrefixToRemove: try object.value("proxyUrlPrefixToRemove"),
            additionalProxyRequestHeaders: try object.value("additionalProxyRequestHeaders") ?? [:],
            removeProxyRequestHeaders: try object.value("removeProxyRequestHeaders") ?? [], transformers: try object.value("transformers") ?? [],
            transformerParameters: try object.value("transformerParameters", as: [String: JSONCoding].self)?.mapValues(\.value) ?? [:])
        if let stray = transformers.first(where: { $0 != Self.responseTemplate }) {
            let index = transformers.firstIndex(of: stray)!
            throw MappingProblem.refused(
                at: decoder.codingPath + [MemberKey("transformers"), MemberKey(intValue: index)!],
                "\"\(Self.responseTemplate)\", found \"\(stray)\": WireMock would run the Java extension registered under that name; "
                    + "there is no JVM here")
        }
    }

    /// Writes the `response` object as WireMock writes it (a header with one value as a string).
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: MemberKey.self)
        try object.put(status, "status")
        try object.put(statusMessage, "statusMessage")
        switch body {
        case .text(let text)?: try object.put(text, "body")
        case .json(let json)?: try object.putJSON(json, "jsonBody")
        case .base64(let data)?: try object.put(data.base64EncodedString(), "base64Body")
        case .file(let name)?: try object.put(name, "bodyFileName")
        case nil: break
        }
        if !headers.isEmpty {
            var headerObject = object.nestedContainer(keyedBy: MemberKey.self, forKey: MemberKey("headers"))
            for name in headers.keys.sorted() {
                let values = headers[name]!
                if values.count == 1 { try headerObject.put(values[0], name) } else { try headerObject.put(values, name) }
            }
        }
        try object.put(fixedDelayMilliseconds, "fixedDelayMilliseconds")
        try object.put(delayDistribution, "delayDistribution")
        try object.put(chunkedDribbleDelay, "chunkedDribbleDelay")
        try object.put(fault, "fault")
        try object.put(proxyBaseUrl, "proxyBaseUrl")
        try object.put(proxyUrlPrefixToRemove, "proxyUrlPrefixToRemove")
        if !additionalProxyRequestHeaders.isEmpty { try object.put(additionalProxyRequestHeaders, "additionalProxyRequestHeaders") }
        if !removeProxyRequestHeaders.isEmpty { try object.put(removeProxyRequestHeaders, "removeProxyRequestHeaders") }
        if !transformers.isEmpty { try object.put(transformers, "transformers") }
        if !transformerParameters.isEmpty { try object.putJSON(.object(transformerParameters), "transformerParameters") }
    }
}
