import Foundation
import URLStubs

extension Scenario {
    /// Each stub of the scenario, with a name, where it was declared and a responder, for
    /// checks that make no request (a scenario folder's responders read their files).
    package var stubResponders:
        [(name: String?, location: StubLocation, method: String?, path: String?, respond: @Sendable (StubRequest) throws -> StubResponse)]
    {
        specs.map { spec in
            let responder = spec.responder
            let required = spec.matcher.requiredMethodAndPath
            return (spec.name, spec.location, required.method, required.path, { try responder($0, 0) })
        }
    }
}
