import Foundation

/// The states of a registry's scenarios (``StubDeclaration/ScenarioStep``): every scenario is
/// in ``StubDeclaration/ScenarioStep/started`` until a stub moves it.
final class ScenarioStates: @unchecked Sendable {
    private let states = Locked<[String: String]>([:])

    func state(of scenario: String) -> String {
        states.withLock { $0[scenario] ?? StubDeclaration.ScenarioStep.started }
    }

    var all: [String: String] {
        states.withLock { $0 }
    }

    func set(_ scenario: String, to state: String) {
        states.withLock { $0[scenario] = state }
    }

    func reset(_ scenario: String? = nil) {
        states.withLock { states in
            if let scenario { states[scenario] = nil } else { states.removeAll() }
        }
    }

    /// Moves the scenario of `step` to its new state if it is still in the required one,
    /// atomically, so two requests racing for one step take it once.
    func advance(_ step: StubDeclaration.ScenarioStep) -> Bool {
        states.withLock { states in
            let current = states[step.name] ?? StubDeclaration.ScenarioStep.started
            if let required = step.requiredState, required != current { return false }
            if let new = step.newState { states[step.name] = new }
            return true
        }
    }

    /// The matcher part of a step: the scenario must be in the required state.
    func matcher(for step: StubDeclaration.ScenarioStep) -> RequestMatcher? {
        guard let required = step.requiredState else { return nil }
        let description = "scenario \"\(step.name)\" in state \"\(required)\""
        return RequestMatcher(description: description) { [weak self] _ in
            let current = self?.state(of: step.name) ?? StubDeclaration.ScenarioStep.started
            return current == required ? .matched : .failed("expected \(description), it is in state \"\(current)\"")
        }
    }
}

/// What a stub does to its scenario when it answers (``StubDeclaration/ScenarioStep``).
struct ScenarioStepper: Sendable {
    let step: StubDeclaration.ScenarioStep
    let states: ScenarioStates

    /// Takes the step; `false` when the scenario left the required state meanwhile.
    func advance() -> Bool { states.advance(step) }
}

extension StubRegistry {
    /// The state the scenario `name` is in (``StubDeclaration/ScenarioStep/started`` until a
    /// stub or ``setScenarioState(_:to:)`` moves it).
    ///
    /// ```swift
    /// registry.setScenarioState("cart", to: "has items")
    /// #expect(registry.scenarioState("cart") == "has items")
    /// ```
    public func scenarioState(_ name: String) -> String { stepStates.state(of: name) }

    /// Moves the scenario `name` to `state`.
    public func setScenarioState(_ name: String, to state: String) { stepStates.set(name, to: state) }

    /// Every scenario a stub or the test moved, by name, with its state.
    public var scenarioStates: [String: String] { stepStates.all }

    /// Puts the scenario `name` (every scenario when `nil`) back in its first state.
    public func resetScenarioState(_ name: String? = nil) { stepStates.reset(name) }
}
