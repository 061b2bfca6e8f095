/// CORS (the Fetch standard's cross-origin resource sharing) for the origins a test allows:
/// the server answers their preflights itself, and adds to every answer the fields that let
/// the page read it. Nothing here applies to any other origin (``ServerAccess`` refuses them).
enum CrossOriginFields {
    /// The fields added to an answer for `origin`; `responseFields` are the answer's own, which
    /// the page may read.
    static func forAnswer(origin: String, responseFields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = [
            ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"), ("Vary", "Origin"),
        ]
        let exposed = responseFields.map(\.name).filter { !$0.isSameFieldName(as: "Set-Cookie") }
        if !exposed.isEmpty { fields.append(("Access-Control-Expose-Headers", exposed.joined(separator: ", "))) }
        return fields
    }

    /// `true` for a preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`.
    static func isPreflight(_ request: ParsedHTTPRequest) -> Bool {
        request.method == "OPTIONS" && request.value(of: "Access-Control-Request-Method") != nil && request.value(of: "Origin") != nil
    }

    /// The `204` that allows what a preflight from an allowed `origin` asks for: its method,
    /// its header fields, and (Chrome's Private Network Access) a page on the public internet.
    static func preflightAnswer(to request: ParsedHTTPRequest, origin: String, closes: Bool) -> [UInt8] {
        var fields: [(name: String, value: String)] = [
            ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"),
            ("Access-Control-Allow-Methods", request.value(of: "Access-Control-Request-Method") ?? "GET"),
        ]
        if let headers = request.value(of: "Access-Control-Request-Headers") { fields.append(("Access-Control-Allow-Headers", headers)) }
        if request.value(of: "Access-Control-Request-Private-Network") == "true" {
            fields.append(("Access-Control-Allow-Private-Network", "true"))
        }
        fields += [
            ("Access-Control-Max-Age", "600"), ("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
        ]
        if closes { fields.append(("Connection", "close")) }
        return WireAnswer.head(status: 204, fields: fields)
    }
}
