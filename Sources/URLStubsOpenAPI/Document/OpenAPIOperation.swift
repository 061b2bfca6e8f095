import Foundation
import URLStubs

/// One operation of a document: a method on a path template.
public struct OpenAPIOperation: Sendable, CustomStringConvertible {
    /// `GET`, `POST`, …
    public let method: String
    /// The path as the document writes it: `/pets/{id}`.
    public let pathTemplate: String
    /// The `operationId`, when the document gives one.
    public let operationId: String?

    /// Where the operation is: `#/paths/~1pets~1{id}/get`.
    let pointer: String
    let template: PathTemplate
    let parameters: [Parameter]
    let requestBody: Body?
    /// By status key as written: `200`, `2XX`, `default`.
    let responses: [String: Response]

    /// `getPet (GET /pets/{id})`, or `GET /pets/{id}` without an `operationId`.
    public var description: String {
        operationId.map { "\($0) (\(method) \(pathTemplate))" } ?? "\(method) \(pathTemplate)"
    }

    struct Parameter: Sendable {
        enum Location: String, Sendable {
            case path, query, header, cookie
        }
        let name: String
        let location: Location
        let isRequired: Bool
        let schema: Int?
        /// `form` / `simple` with `explode`: how an array is written.
        let explode: Bool
        /// How an object is written across several query items: `deepObject` (`filter[name]=…`,
        /// checked for presence only) or `form` (its properties as items of their own, not
        /// checked); `nil` for any other parameter.
        let objectStyle: String?
        let pointer: String
    }

    struct MediaType: Sendable {
        /// Lower-cased, without parameters: `application/json`, `application/*`.
        let name: String
        let schema: Int?
        /// The media type's `example`, or its first `examples` entry's `value`.
        let example: JSONValue?
        let pointer: String
    }

    struct Body: Sendable {
        let isRequired: Bool
        let content: [MediaType]
    }

    struct Response: Sendable {
        let status: String
        let content: [MediaType]
        let pointer: String
    }

    /// The response documented for `status`: its own code, else its range (`4XX`), else
    /// `default`.
    func response(for status: Int) -> Response? {
        responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["\(status / 100)xx"] ?? responses["default"]
    }

    /// The documented status keys, sorted (`200, 404, default`).
    var documentedStatuses: [String] { responses.keys.sorted() }
}

/// A path template split into segments, each literal or holding `{parameters}`.
struct PathTemplate: Sendable {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// The pieces of each segment.
    let segments: [[Piece]]
    /// How specific the template is: segments without parameters first, then literal
    /// characters (`/files/{name}.json` before `/files/{name}`).
    let specificity: (segments: Int, characters: Int)

    init(_ template: String) {
        var segments: [[Piece]] = []
        for segment in template.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var pieces: [Piece] = []
            var rest = Substring(segment)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
                pieces.append(.parameter(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty || pieces.isEmpty { pieces.append(.literal(String(rest))) }
            segments.append(pieces)
        }
        self.segments = segments
        var literalSegments = 0, characters = 0
        for pieces in segments {
            var isLiteral = true
            for piece in pieces {
                switch piece {
                case .literal(let text): characters += text.count
                case .parameter: isLiteral = false
                }
            }
            if isLiteral { literalSegments += 1 }
        }
        specificity = (literalSegments, characters)
    }

    /// The parameters' values (percent-decoded) when `segments` (of a request path) fit.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (pieces, segment) in zip(segments, pathSegments) {
            guard Self.match(pieces[...], Substring(segment), into: &values) else { return nil }
        }
        return values
    }

    private static func match(_ pieces: ArraySlice<Piece>, _ text: Substring, into values: inout [String: String]) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return match(pieces.dropFirst(), text.dropFirst(literal.count), into: &values)
        case .parameter(let name):
            // A parameter takes at least one character, up to where the rest fits.
            var end = text.startIndex
            while end < text.endIndex {
                end = text.index(after: end)
                var attempt = values
                if match(pieces.dropFirst(), text[end...], into: &attempt) {
                    let raw = String(text[..<end])
                    attempt[name] = raw.removingPercentEncoding ?? raw
                    values = attempt
                    return true
                }
            }
            return false
        }
    }

    /// The path with each parameter replaced by `value(name)`.
    func filled(_ value: (String) -> String) -> String {
        segments.map { pieces in
            pieces.map { piece -> String in
                switch piece {
                case .literal(let text): return text
                case .parameter(let name): return value(name)
                }
            }.joined()
        }.map { "/" + $0 }.joined()
    }
}
