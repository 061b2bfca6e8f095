import Foundation
import URLStubs

extension WireMockAdmin {
    /// A declared stub as the admin API shows it.
    struct Listed {
        let descriptor: StubDescriptor
        let mapping: WireMockMapping
        var id: String { mapping.id!.uuidString.lowercased() }
    }

    /// `/__admin/mappings…`.
    func mappings(_ verb: String, _ route: [String], body: Data) throws -> Reply {
        switch (verb, route.first) {
        case ("GET", nil):
            let listed = self.listed()
            return Self.json(.object(["mappings": .array(try listed.map(json)), "meta": .object(["total": .integer(listed.count)])]))
        case ("POST", nil):
            let mapping = try register(try Self.mapping(from: body))
            return Self.json(try json(mapping), status: 201)
        case ("DELETE", nil):
            registry.removeAll()
            return Reply(status: 200)
        case ("POST", "reset") where route.count == 1:
            resetMappings()
            return Reply(status: 200)
        case ("POST", "save") where route.count == 1:
            return Reply(status: 200)
        case ("POST", "import") where route.count == 1:
            return try importMappings(body)
        case ("POST", "find-by-metadata") where route.count == 1:
            let found = try byMetadata(body)
            return Self.json(.object(["mappings": .array(try found.map(json)), "meta": .object(["total": .integer(found.count)])]))
        case ("POST", "remove-by-metadata") where route.count == 1:
            for entry in try byMetadata(body) { registry.remove(entry.descriptor) }
            return Reply(status: 200)
        case (_, let id?) where route.count == 1:
            guard let entry = entry(withID: id) else {
                return Self.error(404, "Not found", "no stub mapping with id \(id)")
            }
            switch verb {
            case "GET": return Self.json(try json(entry))
            case "DELETE":
                registry.remove(entry.descriptor)
                return Reply(status: 200)
            case "PUT":
                var mapping = try Self.mapping(from: body)
                mapping.id = entry.mapping.id
                _ = try declaration(for: mapping)  // refused before the old one goes
                registry.remove(entry.descriptor)
                return Self.json(try json(try register(mapping)))
            default: return Self.notFound("/__admin/mappings/\(id)")
            }
        default: return Self.notFound("/__admin/mappings/" + route.joined(separator: "/"))
        }
    }

    /// The declared stubs in the order WireMock lists them: priority, then newest first.
    func listed() -> [Listed] {
        let stubs = registry.stubs
        var entries: [(Listed, priority: Int, order: Int)] = []
        for (order, descriptor) in stubs.enumerated() {
            guard let declaration = descriptor.declaration, var mapping = try? WireMockMapping(declaration: withoutGlobalDelay(declaration))
            else { continue }
            if mapping.id == nil {
                let key = ObjectIdentifier(descriptor)
                let id = assignedIDs[key] ?? UUID().uuidString.lowercased()
                assignedIDs[key] = id
                mapping.id = UUID(uuidString: id)
            }
            entries.append((Listed(descriptor: descriptor, mapping: mapping), declaration.priority ?? StubDeclaration.defaultPriority, order))
        }
        return entries.sorted { $0.priority != $1.priority ? $0.priority < $1.priority : $0.order > $1.order }.map(\.0)
    }

    /// The stub whose mapping has the id `id` (its declaration's, or the one the listing gave
    /// it), found without writing every stub as a mapping: a `POST` checks it before each
    /// registration, and writing hundreds of mappings would cost milliseconds.
    func descriptor(withID id: String) -> StubDescriptor? {
        let id = id.lowercased()
        let stubs = registry.stubs
        if declaredIDs.count > 2 * stubs.count + 64 { declaredIDs = declaredIDs.filter { $0.value.descriptor != nil } }
        return stubs.first { descriptor in
            // A declared id that is not a UUID is not a mapping's (the listing assigned the
            // stub one), and never equals one: only the text is compared, without parsing.
            if let declared = declaredID(of: descriptor), Self.equalIgnoringASCIICase(declared, id) { return true }
            return assignedIDs[ObjectIdentifier(descriptor)] == id
        }
    }

    /// The id `descriptor`'s declaration carries, from ``declaredIDs`` (checked to be this
    /// descriptor's, not a freed one's whose address it took).
    private func declaredID(of descriptor: StubDescriptor) -> String? {
        let key = ObjectIdentifier(descriptor)
        if let known = declaredIDs[key], known.descriptor === descriptor { return known.id }
        let id = descriptor.declaration?.id
        declaredIDs[key] = DeclaredID(descriptor: descriptor, id: id)
        return id
    }

    /// Whether `text` is `lowercase` but for the case of ASCII letters.
    private static func equalIgnoringASCIICase(_ text: String, _ lowercase: String) -> Bool {
        guard text.utf8.count == lowercase.utf8.count else { return false }
        return zip(text.utf8, lowercase.utf8).allSatisfy { byte, expected in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == expected
        }
    }

    /// The listed stub with the id `id`, or `nil`.
    func entry(withID id: String) -> Listed? {
        guard let descriptor = descriptor(withID: id), let declaration = descriptor.declaration,
            var mapping = try? WireMockMapping(declaration: withoutGlobalDelay(declaration))
        else { return nil }
        if mapping.id == nil { mapping.id = assignedIDs[ObjectIdentifier(descriptor)].flatMap(UUID.init(uuidString:)) }
        return mapping.id == nil ? nil : Listed(descriptor: descriptor, mapping: mapping)
    }

    func json(_ entry: Listed) throws -> JSONValue { try json(entry.mapping) }

    func json(_ mapping: WireMockMapping) throws -> JSONValue { try JSONValueEncoder.encode(mapping) }

    /// A mapping read strictly from a body, or WireMock's `422` naming what is wrong.
    static func mapping(from body: Data) throws -> WireMockMapping {
        _ = try parse(body)
        do {
            return try WireMockMapping.mappings(in: body, source: "request body")[0]
        } catch {
            throw AdminProblem(reply: Self.error(422, "Error parsing JSON", "\(error)", code: 10, pointer: "/"))
        }
    }

    /// The declaration a posted mapping registers as, with the global fixed delay.
    func declaration(for mapping: WireMockMapping) throws -> StubDeclaration {
        var prepared: [PreparedResponse] = []
        return try declaration(for: mapping, keeping: &prepared)
    }

    /// The declaration, its prepared response kept in `prepared` for the registration.
    func declaration(for mapping: WireMockMapping, keeping prepared: inout [PreparedResponse]) throws -> StubDeclaration {
        var declaration: StubDeclaration
        do {
            declaration = try mapping.declaration(
                source: "admin API", files: files, globalTemplating: false, seed: nil, templates: nil, jsonBodyText: nil, keeping: &prepared)
            try declaration.validate()
        } catch {
            throw AdminProblem(reply: Self.error(422, "Invalid stub mapping", "\(error)", code: 10, pointer: "/"))
        }
        return withGlobalDelay(declaration)
    }

    /// Registers `mapping`, giving it an id when it has none (as WireMock does).
    func register(_ mapping: WireMockMapping) throws -> WireMockMapping {
        var mapping = mapping
        if mapping.id == nil { mapping.id = UUID() }
        if let id = mapping.id, let existing = descriptor(withID: id.uuidString) { registry.remove(existing) }
        var prepared: [PreparedResponse] = []
        let declaration = try declaration(for: mapping, keeping: &prepared)
        try withExtendedLifetime(prepared) { _ = try registry.stub(declaration) }
        return mapping
    }

    /// Puts back the declarations the registry held when the handler was made.
    func resetMappings() {
        registry.removeAll()
        assignedIDs.removeAll()
        _ = try? registry.stub(defaults.map(withGlobalDelay))
    }

    /// `declaration` with the global fixed delay added to its request time.
    func withGlobalDelay(_ declaration: StubDeclaration) -> StubDeclaration {
        guard let fixedDelay else { return declaration }
        var delayed = declaration
        delayed.response.requestTime = (declaration.response.requestTime ?? 0) + Double(fixedDelay) / 1000
        return delayed
    }

    /// `declaration` as it was before the global fixed delay was added.
    func withoutGlobalDelay(_ declaration: StubDeclaration) -> StubDeclaration {
        guard let fixedDelay, let requestTime = declaration.response.requestTime else { return declaration }
        var plain = declaration
        let rest = requestTime - Double(fixedDelay) / 1000
        plain.response.requestTime = rest > 0.000_5 ? rest : nil
        return plain
    }

    /// `POST /__admin/mappings/import`: `{"mappings": […], "importOptions": {"duplicatePolicy":
    /// "OVERWRITE" | "IGNORE", "deleteAllNotInImport": false}}`.
    private func importMappings(_ body: Data) throws -> Reply {
        guard case .object(let members) = try Self.parse(body), case .array(let items)? = members["mappings"] else {
            return Self.error(422, "Error parsing JSON", "expected {\"mappings\": [ … ]}", code: 10, pointer: "/mappings")
        }
        var policy = "OVERWRITE"
        var deleteOthers = false
        if case .object(let options)? = members["importOptions"] {
            if case .string(let value)? = options["duplicatePolicy"] { policy = value }
            if case .bool(let value)? = options["deleteAllNotInImport"] { deleteOthers = value }
        }
        let mappings = try items.map { try Self.mapping(from: $0.serialized()) }
        for mapping in mappings { _ = try declaration(for: mapping) }
        if deleteOthers { registry.removeAll() }
        let existing = Set(listed().map(\.mapping.id))
        for mapping in mappings where !(policy == "IGNORE" && mapping.id != nil && existing.contains(mapping.id)) {
            _ = try register(mapping)
        }
        return Reply(status: 200)
    }

    /// The stubs whose metadata (as JSON text) the body's value pattern matches, as WireMock's
    /// `find-by-metadata` decides.
    private func byMetadata(_ body: Data) throws -> [Listed] {
        _ = try Self.parse(body)
        let pattern: WireMockMapping.StringValuePattern
        do {
            pattern = try JSONDecoder().decode(WireMockMapping.StringValuePattern.self, from: body)
        } catch {
            throw AdminProblem(reply: Self.error(422, "Error parsing JSON", "expected a value pattern: \(error)", code: 10, pointer: "/"))
        }
        return listed().filter { entry in
            guard let metadata = entry.mapping.metadata else { return false }
            return pattern.evaluate(String(decoding: JSONValue.object(metadata).serialized(), as: UTF8.self))
        }
    }
}

/// A stub's declared id, with the stub it belongs to (weakly: a removed stub is freed).
final class DeclaredID {
    weak var descriptor: StubDescriptor?
    let id: String?

    init(descriptor: StubDescriptor, id: String?) {
        self.descriptor = descriptor
        self.id = id
    }
}
