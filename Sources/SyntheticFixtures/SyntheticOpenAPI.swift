import Foundation

/// A large OpenAPI document (the same one in YAML and in JSON) and a large response that fits
/// one of its schemas: the inputs of `openAPI.load5MBSeconds` and `openAPI.validate1MBResponseMs`.
extension SyntheticFixtures {
    /// An OpenAPI 3.0 document of about `bytes` bytes of YAML: a path with a `get` and a
    /// schema per resource (parameters, `$ref`s, enums, patterns, formats, block scalars), and
    /// `ItemPage`, the schema of ``openAPIResponse(bytes:)``. The JSON holds the same document.
    public static func openAPIDocument(bytes: Int) -> (yaml: Data, json: Data) {
        var paths: [(String, Any)] = []
        var schemas: [(String, Any)] = [
            ("Error", ["type": "object", "required": ["title"], "properties": ["title": ["type": "string"], "status": ["type": "integer"]]]),
            ("Item", item),
            (
                "ItemPage",
                [
                    "type": "object", "required": ["items"],
                    "properties": [
                        "items": ["type": "array", "items": ["$ref": "#/components/schemas/Item"]],
                        "next": ["type": "string", "format": "uri", "nullable": true],
                    ],
                ]
            ),
        ]
        var size = 0
        var index = 0
        while size < bytes {
            let thing: [String: Any] = [
                "type": "object", "required": ["id", "name"], "additionalProperties": false,
                "properties": [
                    "id": ["type": "integer", "minimum": 1], "name": ["type": "string", "minLength": 1, "maxLength": 80],
                    "price": ["type": "number", "minimum": 0, "multipleOf": 0.01],
                    "status": ["type": "string", "enum": ["available", "pending", "sold"]],
                    "createdAt": ["type": "string", "format": "date-time"],
                    "tags": ["type": "array", "maxItems": 10, "items": ["type": "string", "pattern": "^[a-z]+$"]],
                    "parent": ["$ref": "#/components/schemas/Thing\(max(0, index - 1))"],
                ],
            ]
            let get: [String: Any] = [
                "operationId": "getThing\(index)", "summary": "Gets thing \(index): one of many.",
                "parameters": [
                    ["name": "id", "in": "path", "required": true, "schema": ["type": "integer", "minimum": 1]],
                    ["name": "fields", "in": "query", "schema": ["type": "array", "items": ["type": "string"]]],
                ],
                "responses": [
                    "200": [
                        "description": "Thing number \(index).\nReturned as JSON.\n",
                        "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Thing\(index)"]]],
                    ],
                    "default": [
                        "description": "An error.",
                        "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Error"]]],
                    ],
                ],
            ]
            paths.append(("/things\(index)/{id}", ["get": get]))
            schemas.append(("Thing\(index)", thing))
            size += 1_520
            index += 1
        }
        let document: [String: Any] = [
            "openapi": "3.0.3", "info": ["title": "Synthetic", "version": "1.0.0", "description": "Made by SyntheticFixtures.\n"],
            "servers": [["url": "https://api.synthetic.test/v1"]],
            "paths": Dictionary(uniqueKeysWithValues: paths), "components": ["schemas": Dictionary(uniqueKeysWithValues: schemas)],
        ]
        var yaml = "# A synthetic OpenAPI document.\n"
        yaml.reserveCapacity(bytes + bytes / 4)
        emitYAML(document, indent: 0, into: &yaml)
        let json = try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return (Data(yaml.utf8), json)
    }

    private static var item: [String: Any] {
        [
            "type": "object", "required": ["id", "name", "price"],
            "properties": [
                "id": ["type": "integer", "minimum": 1], "name": ["type": "string", "minLength": 1, "maxLength": 80],
                "price": ["type": "number", "minimum": 0, "multipleOf": 0.01],
                "status": ["type": "string", "enum": ["available", "pending", "sold"]],
                "createdAt": ["type": "string", "format": "date-time"], "id2": ["type": "string", "format": "uuid"],
                "tags": ["type": "array", "items": ["type": "string", "pattern": "^[a-z]+$"]],
            ],
        ]
    }

    /// `{"items": […]}` of about `bytes` bytes, every item valid against `ItemPage`'s `Item`.
    public static func openAPIResponse(bytes: Int) -> Data {
        var text = #"{"items":["#
        text.reserveCapacity(bytes + 256)
        var index = 0
        while text.utf8.count < bytes {
            if index > 0 { text += "," }
            text +=
                #"{"id":\#(index + 1),"name":"item \#(index)","price":\#(index % 100).25,"status":"available","#
                + #""createdAt":"2024-05-01T10:00:00Z","id2":"3f2b6c1e-8d4a-4b7e-9c2d-5a6f7e8d9c0b","tags":["new","sale"]}"#
            index += 1
        }
        text += #"],"next":null}"#
        return Data(text.utf8)
    }

    /// Block mappings, flow sequences of scalars, block literals for multi-line strings.
    private static func emitYAML(_ value: Any, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                let member = object[key]!
                out += pad + scalarYAML(key) + ":"
                if let nested = member as? [String: Any], !nested.isEmpty {
                    out += "\n"
                    emitYAML(nested, indent: indent + 2, into: &out)
                } else if let list = member as? [Any], list.contains(where: { $0 is [String: Any] }) {
                    out += "\n"
                    for element in list {
                        out += pad + "  -"
                        if let nested = element as? [String: Any] {
                            var inner = ""
                            emitYAML(nested, indent: indent + 4, into: &inner)
                            out += " " + inner.dropFirst(indent + 4)
                        } else {
                            out += " " + scalarYAML(element) + "\n"
                        }
                    }
                } else if let text = member as? String, text.contains("\n") {
                    out += " |\n" + text.split(separator: "\n").map { pad + "  " + $0 }.joined(separator: "\n") + "\n"
                } else {
                    out += " " + scalarYAML(member) + "\n"
                }
            }
        }
    }

    private static func scalarYAML(_ value: Any) -> String {
        switch value {
        case let list as [Any]: return "[" + list.map(scalarYAML).joined(separator: ", ") + "]"
        case let object as [String: Any] where object.isEmpty: return "{}"
        case let flag as Bool: return flag ? "true" : "false"
        case let number as Int: return String(number)
        case let number as Double: return String(number)
        case let text as String:
            let plain =
                !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "." || $0 == "_" }
                && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"].contains(text.lowercased())
                && !(text.first?.isNumber ?? false) && !text.hasPrefix(".") && !text.hasSuffix(" ")
            if plain { return text }
            let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        default: return "\(value)"
        }
    }
}
