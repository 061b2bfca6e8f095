import Foundation
import URLStubs

/// Reads the operations of a document's `paths`, following `$ref`s to path items, parameters,
/// request bodies and responses, and compiling every schema they hold.
struct OperationParser {
    var compiler: SchemaCompiler
    let root: JSONValue
    /// The order each `examples` map lists its entries in (see ``OpenAPIDocument``).
    let examplesOrder: [JSONValue: [String]]

    private func fail(_ pointer: String, _ message: String) -> OpenAPIError {
        compiler.error(pointer, message)
    }

    /// `value`, or what its `$ref` points to (followed through chains), with its pointer.
    private func dereference(_ value: JSONValue, at pointer: String) throws -> (value: [String: JSONValue], pointer: String) {
        var current = value
        var location = pointer
        var hops = 0
        while case .string(let reference)? = current.objectValue?["$ref"] {
            guard reference.hasPrefix("#") else {
                throw fail(
                    location,
                    "the $ref \"\(reference)\" points outside the document; external references are not followed (bundle the document into one file)")
            }
            guard let target = JSONPointer.resolve(reference, in: root) else {
                throw fail(location, "the $ref \"\(reference)\" points to nothing in the document")
            }
            hops += 1
            guard hops < 64 else { throw fail(location, "the $ref \"\(reference)\" is part of a cycle of references") }
            current = target
            location = JSONPointer.canonical(reference)
        }
        guard let object = current.objectValue else { throw fail(location, "expected an object, found \(current.brief)") }
        return (object, location)
    }

    mutating func operations(at template: String, item: JSONValue) throws -> [OpenAPIOperation] {
        let itemPointer = JSONPointer.appending("#/paths", template)
        guard template.hasPrefix("/") else { throw fail(itemPointer, "a path must start with \"/\"") }
        let (pathItem, resolvedItem) = try dereference(item, at: itemPointer)
        let shared = try parameters(pathItem["parameters"], at: JSONPointer.appending(resolvedItem, "parameters"))
        var result: [OpenAPIOperation] = []
        for method in OpenAPIDocument.methods {
            guard let value = pathItem[method] else { continue }
            let pointer = JSONPointer.appending(resolvedItem, method)
            guard let operation = value.objectValue else { throw fail(pointer, "expected an operation object, found \(value.brief)") }
            var merged = shared
            for parameter in try parameters(operation["parameters"], at: JSONPointer.appending(pointer, "parameters")) {
                merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                merged.append(parameter)
            }
            let pathTemplate = PathTemplate(template)
            for case .parameter(let name) in pathTemplate.segments.joined()
            where !merged.contains(where: { $0.location == .path && $0.name == name }) {
                // An undeclared path parameter is still a parameter: any text fits.
                merged.append(.init(name: name, location: .path, isRequired: true, schema: nil, explode: false, objectStyle: nil, pointer: pointer))
            }
            var body: OpenAPIOperation.Body?
            if let requestBody = operation["requestBody"] {
                let (object, bodyPointer) = try dereference(requestBody, at: JSONPointer.appending(pointer, "requestBody"))
                body = .init(
                    isRequired: object["required"]?.boolValue ?? false,
                    content: try content(object["content"], at: JSONPointer.appending(bodyPointer, "content")))
            }
            var responses: [String: OpenAPIOperation.Response] = [:]
            if let documented = operation["responses"] {
                guard let statuses = documented.objectValue else {
                    throw fail(JSONPointer.appending(pointer, "responses"), "expected an object of responses by status")
                }
                for status in statuses.keys.sorted() {
                    let statusPointer = JSONPointer.appending(JSONPointer.appending(pointer, "responses"), status)
                    guard Self.isStatusKey(status) else {
                        throw fail(statusPointer, "\"\(status)\" is not a status code, a range like 2XX, or default")
                    }
                    let (response, responsePointer) = try dereference(statuses[status]!, at: statusPointer)
                    responses[status] = .init(
                        status: status, content: try content(response["content"], at: JSONPointer.appending(responsePointer, "content")),
                        pointer: responsePointer)
                }
            }
            let operationId = operation["operationId"]?.stringValue
            result.append(
                OpenAPIOperation(
                    method: method.uppercased(), pathTemplate: template, operationId: operationId, pointer: pointer, template: pathTemplate,
                    parameters: merged, requestBody: body, responses: responses))
        }
        return result
    }

    static func isStatusKey(_ key: String) -> Bool {
        if key == "default" { return true }
        let bytes = Array(key.utf8)
        guard bytes.count == 3, (49...53).contains(bytes[0]) else { return false }
        let isDigits = bytes[1...].allSatisfy { $0 >= 48 && $0 <= 57 }
        let isRange = bytes[1...].allSatisfy { $0 == UInt8(ascii: "X") || $0 == UInt8(ascii: "x") }
        return isDigits || isRange
    }

    private mutating func parameters(_ value: JSONValue?, at pointer: String) throws -> [OpenAPIOperation.Parameter] {
        guard let value else { return [] }
        guard let list = value.arrayValue else { throw fail(pointer, "expected a list of parameters, found \(value.brief)") }
        var result: [OpenAPIOperation.Parameter] = []
        for (position, entry) in list.enumerated() {
            let (object, entryPointer) = try dereference(entry, at: JSONPointer.appending(pointer, String(position)))
            guard let name = object["name"]?.stringValue else { throw fail(entryPointer, "a parameter needs a \"name\"") }
            guard let place = object["in"]?.stringValue, let location = OpenAPIOperation.Parameter.Location(rawValue: place) else {
                throw fail(entryPointer, "a parameter's \"in\" must be path, query, header or cookie, found \(object["in"]?.brief ?? "nothing")")
            }
            var schema: Int?
            if let schemaValue = object["schema"] {
                schema = try compiler.compile(schemaValue, at: JSONPointer.appending(entryPointer, "schema"))
            } else if let media = try content(object["content"], at: JSONPointer.appending(entryPointer, "content")).first {
                schema = media.schema
            }
            let style = object["style"]?.stringValue ?? (location == .query || location == .cookie ? "form" : "simple")
            result.append(
                .init(
                    name: name, location: location, isRequired: location == .path || object["required"]?.boolValue == true, schema: schema,
                    explode: object["explode"]?.boolValue ?? (style == "form"),
                    objectStyle: style == "deepObject" || schema.map({ compiler.set.nodes[$0].types == ["object"] }) == true ? style : nil,
                    pointer: entryPointer))
        }
        return result
    }

    private mutating func content(_ value: JSONValue?, at pointer: String) throws -> [OpenAPIOperation.MediaType] {
        guard let value else { return [] }
        guard let types = value.objectValue else { throw fail(pointer, "expected an object of media types, found \(value.brief)") }
        var result: [OpenAPIOperation.MediaType] = []
        for name in types.keys.sorted() {
            let mediaPointer = JSONPointer.appending(pointer, name)
            guard let media = types[name]!.objectValue else { throw fail(mediaPointer, "expected a media type object") }
            var schema: Int?
            if let schemaValue = media["schema"] {
                schema = try compiler.compile(schemaValue, at: JSONPointer.appending(mediaPointer, "schema"))
            }
            var example = media["example"]
            if example == nil, let examplesValue = media["examples"], let examples = examplesValue.objectValue,
                let first = examplesOrder[examplesValue]?.first ?? examples.keys.sorted().first
            {
                let (object, _) = try dereference(examples[first]!, at: JSONPointer.appending(JSONPointer.appending(mediaPointer, "examples"), first))
                example = object["value"]
            }
            result.append(.init(name: MediaTypeName.essence(of: name), schema: schema, example: example, pointer: mediaPointer))
        }
        return result
    }
}

/// Media type names: `application/json; charset=utf-8` is `application/json`;
/// `application/problem+json` is JSON.
enum MediaTypeName {
    static func essence(of value: String) -> String {
        let name = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        return name.trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func isJSON(_ essence: String) -> Bool {
        guard let slash = essence.firstIndex(of: "/") else { return false }
        let type = essence[..<slash], subtype = essence[essence.index(after: slash)...]
        return (type == "application" || type == "*") && (subtype == "json" || subtype.hasSuffix("+json"))
            || essence == "text/json"
    }

    /// The documented media type `essence` falls under: itself, `type/*`, then `*/*`.
    static func documented(_ essence: String, in content: [OpenAPIOperation.MediaType]) -> OpenAPIOperation.MediaType? {
        if let exact = content.first(where: { $0.name == essence }) { return exact }
        let type = essence.split(separator: "/").first.map(String.init) ?? essence
        if let range = content.first(where: { $0.name == type + "/*" }) { return range }
        return content.first { $0.name == "*/*" }
    }
}
