import Foundation
import URLStubs
import URLStubsMultipart

/// GraphQL documents: an argument or an input field written inline whose name
/// ``Scrubbing/jsonFields`` lists (`login(password: "…")`, `input: {token: "…"}`, names
/// compared without regard to case), wherever a request carries a document: a JSON body's
/// `query` (each operation of a batch), an `application/graphql` body, a GET's `query`
/// parameter, a multipart upload's `operations` field.
///
/// The value keeps its shape, as a JSON member's does: a string becomes the placeholder (a
/// GraphQL string), a number `0`, and each string and number inside a list or an input object
/// is scrubbed so. Enum values, booleans, `null` and variables stay: a variable's value is in
/// the variables object, scrubbed there under its own name. An alias (`password: secretField`)
/// is no value and stays. The document is read with the GraphQL lexer, token by token, so a
/// name inside a string or a comment is never taken for an argument.
extension Scrubbing {
    /// A listed value: its bytes in the document, and where its argument's name starts.
    private struct ListedValue {
        let token: GraphQLLexer.Token
        let nameStart: Int
    }

    /// The values of listed arguments and input fields in `document`, in order, and its bytes.
    private func listedGraphQLValues(in document: String) -> (values: [ListedValue], bytes: [UInt8]) {
        let names = Set(jsonFields.map { $0.lowercased() })
        var lexer = GraphQLLexer(document)
        guard !names.isEmpty, names.contains(where: { document.lowercased().contains($0) }) else { return ([], lexer.bytes) }
        var values: [ListedValue] = []
        var candidate: GraphQLLexer.Token?  // a listed name just read
        var valueOf: Int?  // a listed name and its colon were read: where the name starts
        var depth = 0  // inside a listed list or input object: the brackets open
        var nameStart = 0
        func isPunctuator(_ token: GraphQLLexer.Token, _ characters: String) -> Bool {
            token.kind == .punctuator && characters.utf8.contains(lexer.bytes[token.range.lowerBound])
        }
        while let token = lexer.next() {
            if depth > 0 {
                if isPunctuator(token, "[{") {
                    depth += 1
                } else if isPunctuator(token, "]}") {
                    depth -= 1
                } else if token.kind == .string || token.kind == .number {
                    values.append(ListedValue(token: token, nameStart: nameStart))
                }
                continue
            }
            if let start = valueOf {
                valueOf = nil
                nameStart = start
                if token.kind == .string || token.kind == .number {
                    values.append(ListedValue(token: token, nameStart: start))
                } else if isPunctuator(token, "[{") {
                    depth = 1
                }
                continue
            }
            if token.kind == .name, names.contains(lexer.text(of: token).lowercased()) {
                candidate = token
                continue
            }
            if let name = candidate, isPunctuator(token, ":") { valueOf = name.range.lowerBound }
            candidate = nil
        }
        return (values, lexer.bytes)
    }

    /// `document` with each listed value scrubbed; `document` itself when it holds none.
    func scrubGraphQLDocument(_ document: String) -> String {
        let (values, bytes) = listedGraphQLValues(in: document)
        guard !values.isEmpty else { return document }
        let escaped = placeholder.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        var result: [UInt8] = []
        var copied = 0
        for value in values {
            result += bytes[copied..<value.token.range.lowerBound]
            result += value.token.kind == .string ? Array("\"\(escaped)\"".utf8) : Array("0".utf8)
            copied = value.token.range.upperBound
        }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The values of `document` whose copies elsewhere are scrubbed too: each listed string (as
    /// written between its quotes, and decoded) and whole number.
    func graphQLDocumentSecrets(_ document: String) -> Set<String> {
        let (values, bytes) = listedGraphQLValues(in: document)
        var secrets: Set<String> = []
        for value in values {
            let text = String(decoding: bytes[value.token.range], as: UTF8.self)
            if value.token.kind == .number {
                if Int(text) != nil { secrets.insert(text) }
                continue
            }
            let quotes = text.hasPrefix("\"\"\"") && text.count >= 6 ? 3 : 1
            guard text.count >= 2 * quotes else { continue }
            let inner = String(text.dropFirst(quotes).dropLast(quotes))
            secrets.insert(inner)
            if quotes == 1 { secrets.insert(Self.decodingGraphQLEscapes(inner)) }
        }
        return secrets
    }

    /// The start of `document`, up to the first listed argument: what a suggested stub may
    /// quote, which the live request still contains.
    func graphQLTextBeforeFirstSecret(_ document: String) -> String {
        let (values, bytes) = listedGraphQLValues(in: document)
        guard let first = values.first else { return document }
        return String(decoding: bytes[..<first.nameStart], as: UTF8.self)
    }

    /// `json` with the document of each GraphQL operation in it (an object's `query`, a
    /// batch's elements') scrubbed.
    func scrubGraphQLQueries(in json: JSONValue) -> JSONValue {
        switch json {
        case .object(var members):
            guard case .string(let document)? = members["query"] else { return json }
            members["query"] = .string(scrubGraphQLDocument(document))
            return .object(members)
        case .array(let elements):
            return .array(
                elements.map { element in
                    if case .object = element { return scrubGraphQLQueries(in: element) }
                    return element
                })
        default:
            return json
        }
    }

    /// The secrets of the GraphQL documents in `json` (see ``graphQLDocumentSecrets(_:)``).
    func graphQLQuerySecrets(in json: JSONValue) -> Set<String> {
        switch json {
        case .object(let members):
            guard case .string(let document)? = members["query"] else { return [] }
            return graphQLDocumentSecrets(document)
        case .array(let elements):
            return elements.reduce(into: []) { secrets, element in
                if case .object = element { secrets.formUnion(graphQLQuerySecrets(in: element)) }
            }
        default:
            return []
        }
    }

    /// `false` when `body` cannot hold a GraphQL document with a listed argument: no `"query"`
    /// member, or none of the names in any case. It spares parsing every JSON body.
    func mayHoldGraphQLArgument(_ body: Data) -> Bool {
        guard !jsonFields.isEmpty, body.range(of: Data("\"query\"".utf8)) != nil else { return false }
        let lowered = String(decoding: body, as: UTF8.self).lowercased()
        return jsonFields.contains { lowered.contains($0.lowercased()) }
    }

    /// `true` for an `application/graphql` body: the document itself.
    static func isGraphQLDocument(_ mimeType: String?) -> Bool {
        mimeType.map { MediaType($0).essence == "application/graphql" } ?? false
    }

    /// A GraphQL string's text with its escapes (`\"`, `\\`, `\n`, `\u0041`) decoded.
    private static func decodingGraphQLEscapes(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var characters = text.unicodeScalars.makeIterator()
        while let scalar = characters.next() {
            guard scalar == "\\", let escaped = characters.next() else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch escaped {
            case "n": result += "\n"
            case "r": result += "\r"
            case "t": result += "\t"
            case "b": result += "\u{8}"
            case "f": result += "\u{C}"
            case "u":
                var hex = ""
                for _ in 0..<4 { if let digit = characters.next() { hex.unicodeScalars.append(digit) } }
                if let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code) { result.unicodeScalars.append(decoded) }
            default: result.unicodeScalars.append(escaped)
            }
        }
        return result
    }
}

/// GraphQL documents scrubbed wherever a request carries one: an `application/graphql` body, a
/// GET's `query` parameter, a JSON body's `query` (each operation of a batch).
extension GraphQLStrategy: ScrubbingStrategy {
    /// An `application/graphql` body's listed arguments scrubbed.
    package func scrub(body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Data? {
        guard Scrubbing.isGraphQLDocument(mimeType) else { return nil }
        guard let document = String(data: body, encoding: .utf8) else { return body }
        let kept = scrubbing.scrubGraphQLDocument(document)
        return kept == document ? body : Data(kept.utf8)
    }

    /// The listed arguments of an `application/graphql` body.
    package func secrets(inBody body: Data, mimeType: String?, with scrubbing: Scrubbing) -> Set<String>? {
        guard Scrubbing.isGraphQLDocument(mimeType) else { return nil }
        return scrubbing.graphQLDocumentSecrets(String(decoding: body, as: UTF8.self))
    }

    /// A `query` parameter's document with its listed arguments scrubbed.
    package func scrub(queryValue value: String, named name: String, with scrubbing: Scrubbing) -> String? {
        guard name == "query" else { return nil }
        let kept = scrubbing.scrubGraphQLDocument(value)
        return kept == value ? nil : kept
    }

    /// The listed arguments of a `query` parameter's document.
    package func secrets(inQueryValue value: String, named name: String, with scrubbing: Scrubbing) -> Set<String> {
        name == "query" ? scrubbing.graphQLDocumentSecrets(value) : []
    }

    /// Whether `body` may hold a `query` document with a listed argument.
    package func mayHoldSecrets(inJSONBody body: Data, with scrubbing: Scrubbing) -> Bool {
        scrubbing.mayHoldGraphQLArgument(body)
    }

    /// `json` with each operation's document scrubbed.
    package func scrub(json: JSONValue, with scrubbing: Scrubbing) -> JSONValue {
        scrubbing.scrubGraphQLQueries(in: json)
    }

    /// The listed arguments of each operation's document in `json`.
    package func secrets(inJSON json: JSONValue, with scrubbing: Scrubbing) -> Set<String> {
        scrubbing.graphQLQuerySecrets(in: json)
    }
}
