import Foundation
import URLStubs

extension WireMockAdmin {
    /// `/__admin/scenarios…`: the scenarios the registry's declarations name.
    func scenarios(_ verb: String, _ route: [String], body: Data) throws -> Reply {
        switch (verb, route.count) {
        case ("GET", 0):
            let items = knownScenarios().map { name, states -> JSONValue in
                .object([
                    "id": .string(name), "name": .string(name), "state": .string(registry.scenarioState(name)),
                    "possibleStates": .array(states.map(JSONValue.string)),
                ])
            }
            return Self.json(.object(["scenarios": .array(items)]))
        case ("POST", 1) where route[0] == "reset":
            registry.resetScenarioState()
            return Reply(status: 200)
        case ("PUT", 2) where route[1] == "state":
            let name = route[0].removingPercentEncoding ?? route[0]
            guard let states = knownScenarios().first(where: { $0.name == name })?.states else {
                return Self.error(404, "Scenario not found", "no scenario named \(name)")
            }
            var state = StubDeclaration.ScenarioStep.started
            if !body.isEmpty {
                guard case .object(let members) = try Self.parse(body) else {
                    return Self.error(422, "Error parsing JSON", "expected {\"state\": …}", code: 10, pointer: "/")
                }
                if case .string(let value)? = members["state"] { state = value }
            }
            // WireMock 3 refuses a state no mapping of the scenario names.
            guard states.contains(state) else {
                return Self.error(400, "Invalid scenario state", "\(state) is not a state of \(name): \(states.joined(separator: ", "))")
            }
            registry.setScenarioState(name, to: state)
            return Reply(status: 200)
        case ("POST", 2) where route[1] == "reset":
            registry.resetScenarioState(route[0].removingPercentEncoding ?? route[0])
            return Reply(status: 200)
        default: return Self.notFound("/__admin/scenarios/" + route.joined(separator: "/"))
        }
    }

    /// Every scenario a declaration names, with its possible states (`Started` first), by name.
    func knownScenarios() -> [(name: String, states: [String])] {
        var states: [String: [String]] = [:]
        for declaration in registry.declarations {
            guard let step = declaration.scenario else { continue }
            var known = states[step.name] ?? [StubDeclaration.ScenarioStep.started]
            for state in [step.requiredState, step.newState].compactMap({ $0 }) where !known.contains(state) { known.append(state) }
            states[step.name] = known
        }
        return states.keys.sorted().map { ($0, states[$0]!) }
    }

    /// `/__admin/settings`: `{"settings": {"fixedDelay": 500}}`; posting `{"fixedDelay": 500}`
    /// delays every mapping's answer by that many more milliseconds.
    func settings(_ verb: String, body: Data) throws -> Reply {
        switch verb {
        case "GET":
            return Self.json(.object(["settings": .object(["fixedDelay": fixedDelay.map(JSONValue.integer) ?? .null])]))
        case "POST", "PUT":
            guard case .object(var members) = try Self.parse(body) else {
                return Self.error(422, "Error parsing JSON", "expected {\"fixedDelay\": …}", code: 10, pointer: "/")
            }
            if case .object(let inner)? = members["settings"] { members = inner }
            var delay: Int?
            switch members["fixedDelay"] {
            case .integer(let value)?: delay = value
            case .number(let value)?: delay = Int(value)
            case .null?, nil: delay = nil
            default: return Self.error(422, "Error parsing JSON", "expected a number of milliseconds", code: 10, pointer: "/fixedDelay")
            }
            let current = registry.stubs.compactMap { stub in stub.declaration.map { (stub, withoutGlobalDelay($0)) } }
            fixedDelay = delay
            // Every declared stub again, oldest first so the order stays, with the new delay in place of the old.
            for (stub, declaration) in current {
                registry.remove(stub)
                _ = try? registry.stub(withGlobalDelay(declaration))
            }
            return Reply(status: 200)
        default: return Self.notFound("/__admin/settings")
        }
    }
}
