import Foundation

/// One way a request or a response breaks the document.
///
/// ```text
/// getPet (GET /pets/{id}): response 200 body $.tags[1]: expected type string, found integer 3 (#/components/schemas/Tag/type)
/// listPets (GET /pets): query parameter "limit": expected the required query parameter, found none (#/paths/~1pets/get/parameters/0)
/// getPet (GET /pets/{id}): status: expected a documented status (200, 404), found 418 (#/paths/~1pets~1{id}/get/responses)
/// ```
public struct ContractViolation: Sendable, Equatable, CustomStringConvertible {
    /// The operation the request selects (`getPet (GET /pets/{id})`), or the method and path
    /// when it selects none (`DELETE /pets/7`).
    public let operation: String
    /// What part broke: `status`, `response 200 Content-Type`, `response 200 body`, `request
    /// body`, `query parameter "limit"`, `path`, …
    public let part: String
    /// Where in a JSON body (`$.items[3].price`); `nil` when the violation is not inside one.
    public let jsonPath: String?
    /// Where in the document the rule is (`#/components/schemas/Pet/properties/price/type`).
    public let schemaPath: String?
    /// What the document wants.
    public let expected: String
    /// What came.
    public let found: String
    /// `true` when the app's request broke the document (a parameter, its body, a path or
    /// method the document lacks), `false` when the response did.
    public internal(set) var isAboutRequest = false

    /// One line: operation, part, JSON path, expected, found, then the schema path.
    public var description: String {
        let path = jsonPath.map { " " + $0 } ?? ""
        let rule = schemaPath.map { " (\($0))" } ?? ""
        return "\(operation): \(part)\(path): expected \(expected), found \(found)\(rule)"
    }
}
