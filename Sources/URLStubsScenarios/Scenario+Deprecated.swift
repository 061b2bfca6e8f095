import Foundation

extension Scenario {
    /// The number of stubs the scenario adds: activate it and count the registry's stubs.
    @available(*, deprecated, message: "activate the scenario in a StubRegistry() and read registry.stubs.count")
    public var stubCount: Int { specs.count }
}
