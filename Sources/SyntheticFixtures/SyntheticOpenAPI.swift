import Foundation

/// A large OpenAPI document (the same one in YAML and in JSON) shaped like the public documents
/// of large APIs, and a large response that fits one of its schemas: the inputs of
/// `openAPI.load5MBSeconds`, `openAPI.selfCheck4MBDocumentSeconds` and
/// `openAPI.validate1MBResponseMs`.
extension SyntheticFixtures {
    /// An OpenAPI 3.0 document of about `bytes` bytes of YAML (its JSON is about 75 % of that).
    ///
    /// Each resource has three operations (list, create, get) with long parameter lists, and
    /// schemas shaped as real documents of chat and payment APIs are: messages as `oneOf`
    /// alternatives told apart by an enum, whose content is a `oneOf` of a string or an array
    /// of `oneOf` parts, four levels deep; `$ref`s to shared schemas on every level; long enums
    /// and long arrays of small objects (parameters, `required` lists, examples). `ItemPage` is
    /// the schema of ``openAPIResponse(bytes:)``.
    public static func openAPIDocument(bytes: Int) -> (yaml: Data, json: Data) {
        var paths: [(String, Any)] = []
        var schemas: [(String, Any)] = sharedSchemas
        var size = 0
        var index = 0
        while size < bytes {
            paths += resourcePaths(index)
            schemas += resourceSchemas(index)
            size += 7_530
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

    private static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    /// Forty model names: a long enum, as chat APIs list their models.
    private static let models = (0..<40).map { "model-\($0 / 10)-\(["mini", "base", "large", "max"][$0 % 4])-\($0)" }

    /// Schemas every resource refers to.
    private static var sharedSchemas: [(String, Any)] {
        [
            ("Error", ["type": "object", "required": ["title"], "properties": ["title": ["type": "string"], "status": ["type": "integer"]]]),
            ("Item", item),
            (
                "ItemPage",
                [
                    "type": "object", "required": ["items"],
                    "properties": [
                        "items": ["type": "array", "items": ref("Item")],
                        "next": ["type": "string", "format": "uri", "nullable": true],
                    ],
                ]
            ),
            (
                "Usage",
                [
                    "type": "object", "required": ["input_tokens", "output_tokens"],
                    "properties": [
                        "input_tokens": ["type": "integer", "minimum": 0], "output_tokens": ["type": "integer", "minimum": 0],
                        "cached": ["type": "boolean"],
                    ],
                ]
            ),
            (
                "TextPart",
                [
                    "type": "object", "required": ["type", "text"],
                    "properties": ["type": ["type": "string", "enum": ["text"]], "text": ["type": "string"]],
                ]
            ),
            (
                "ImagePart",
                [
                    "type": "object", "required": ["type", "image_url"],
                    "properties": [
                        "type": ["type": "string", "enum": ["image_url"]],
                        "image_url": [
                            "type": "object", "required": ["url"],
                            "properties": [
                                "url": ["type": "string", "format": "uri"], "detail": ["type": "string", "enum": ["low", "high", "auto"]],
                            ],
                        ],
                    ],
                ]
            ),
            ("FileRef", ["type": "object", "required": ["file_id"], "properties": ["file_id": ["type": "string", "minLength": 4]]]),
            (
                "Tool",
                [
                    "type": "object", "required": ["type", "name"],
                    "properties": [
                        "type": ["type": "string", "enum": ["function"]], "name": ["type": "string", "maxLength": 64],
                        "parameters": ["type": "object", "additionalProperties": true],
                    ],
                ]
            ),
            ("UserMessage", message(role: "user", content: ref("Content"))),
            (
                "AssistantMessage",
                message(role: "assistant", content: ref("Content"), extra: ["tool_calls": ["type": "array", "items": ref("Tool")]])
            ),
            // A string, or an array of parts: text, an image, or a file given by reference or by name.
            (
                "Content",
                [
                    "oneOf": [
                        ["type": "string"],
                        [
                            "type": "array",
                            "items": [
                                "oneOf": [
                                    ref("TextPart"), ref("ImagePart"),
                                    [
                                        "type": "object", "required": ["type", "file"],
                                        "properties": [
                                            "type": ["type": "string", "enum": ["file"]],
                                            "file": ["oneOf": [ref("FileRef"), ["type": "string", "maxLength": 200]]],
                                        ],
                                    ],
                                ]
                            ],
                        ],
                    ]
                ]
            ),
        ]
    }

    private static func message(role: String, content: [String: Any], extra: [String: Any] = [:]) -> [String: Any] {
        var properties: [String: Any] = ["role": ["type": "string", "enum": [role]], "content": content, "name": ["type": "string"]]
        properties.merge(extra) { $1 }
        return ["type": "object", "required": ["role", "content"], "properties": properties]
    }

    /// `Thing{n}` (what the operations return), `Message{n}` (a deep `oneOf`) and
    /// `CreateThing{n}` (a request body).
    private static func resourceSchemas(_ index: Int) -> [(String, Any)] {
        let thing: [String: Any] = [
            "type": "object", "required": ["id", "object", "created", "model", "messages"],
            "properties": [
                "id": ["type": "string", "minLength": 1], "object": ["type": "string", "enum": ["thing\(index)"]],
                "created": ["type": "integer", "minimum": 0], "model": ["type": "string", "enum": models],
                "status": ["type": "string", "enum": ["queued", "in_progress", "completed", "failed", "cancelled", "expired"]],
                "messages": ["type": "array", "items": ref("Message\(index)"), "maxItems": 50],
                "tools": ["type": "array", "items": ref("Tool")], "usage": ref("Usage"),
                "metadata": ["type": "object", "additionalProperties": ["type": "string", "maxLength": 512], "maxProperties": 16],
                "temperature": ["type": "number", "minimum": 0, "maximum": 2], "parent": ref("Thing\(index)"),
            ],
        ]
        let message: [String: Any] = [
            "oneOf": [
                ref("UserMessage"), ref("AssistantMessage"),
                [
                    "type": "object", "required": ["role", "content", "tool_call_id"],
                    "properties": [
                        "role": ["type": "string", "enum": ["tool"]], "tool_call_id": ["type": "string"],
                        "content": ["oneOf": [["type": "string"], ["type": "array", "items": ref("TextPart")]]],
                    ],
                ],
            ]
        ]
        let create: [String: Any] = [
            "type": "object", "required": ["model", "messages"],
            "properties": [
                "model": ["type": "string", "enum": models], "messages": ["type": "array", "minItems": 1, "items": ref("Message\(index)")],
                "tools": ["type": "array", "items": ref("Tool")], "stream": ["type": "boolean"],
                "max_tokens": ["type": "integer", "minimum": 1, "maximum": 100_000],
            ],
        ]
        return [("Thing\(index)", thing), ("Message\(index)", message), ("CreateThing\(index)", create)]
    }

    /// `/things{n}` (list and create) and `/things{n}/{id}` (get).
    private static func resourcePaths(_ index: Int) -> [(String, Any)] {
        let errors: [String: Any] = [
            "400": ["description": "Bad request.", "content": ["application/json": ["schema": ref("Error")]]],
            "404": ["description": "Not found.", "content": ["application/json": ["schema": ref("Error")]]],
        ]
        let filters: [[String: Any]] = (0..<8).map { filter in
            ["name": "filter\(filter)", "in": "query", "required": false, "schema": ["type": "string", "maxLength": 64]]
        }
        let list: [String: Any] = [
            "operationId": "listThings\(index)", "summary": "Lists things \(index).",
            "parameters": filters + [
                ["name": "limit", "in": "query", "schema": ["type": "integer", "minimum": 1, "maximum": 100]],
                ["name": "order", "in": "query", "schema": ["type": "string", "enum": ["asc", "desc"]]],
            ],
            "responses": [
                "200": [
                    "description": "A page of things.",
                    "content": [
                        "application/json": [
                            "schema": [
                                "type": "object", "required": ["data", "has_more"],
                                "properties": ["data": ["type": "array", "items": ref("Thing\(index)")], "has_more": ["type": "boolean"]],
                            ]
                        ]
                    ],
                ]
            ].merging(errors) { $1 },
        ]
        let create: [String: Any] = [
            "operationId": "createThing\(index)", "summary": "Creates thing \(index).",
            "requestBody": ["required": true, "content": ["application/json": ["schema": ref("CreateThing\(index)")]]],
            "responses": ["200": ["description": "The thing.", "content": ["application/json": ["schema": ref("Thing\(index)")]]]].merging(errors) {
                $1
            },
        ]
        let get: [String: Any] = [
            "operationId": "getThing\(index)", "summary": "Gets thing \(index): one of many.",
            "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "string"]]],
            "responses": [
                "200": [
                    "description": "Thing number \(index).\nReturned as JSON.\n",
                    "content": ["application/json": ["schema": ref("Thing\(index)")]],
                ]
            ].merging(errors) { $1 },
        ]
        return [("/things\(index)", ["get": list, "post": create]), ("/things\(index)/{id}", ["get": get])]
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
