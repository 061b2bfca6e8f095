import Foundation
import URLStubs

extension Scenario {
    /// Each stub of the scenario, with a name, where it was declared and a responder, for
    /// checks that make no request (a scenario folder's responders read their files).
    package var stubResponders:
        [(name: String?, location: StubLocation, method: String?, path: String?, respond: @Sendable (StubRequest) throws -> StubResponse)]
    {
        let built = specs.map { spec in
            let responder = spec.responder
            let required = spec.matcher.requiredMethodAndPath
            return (spec.name, spec.location, required.method, required.path, { @Sendable (request: StubRequest) in try responder(request, 0) })
        }
        let folder = self.folder
        return built
            + declarations.map { declaration in
                let matcher = RequestMatcher(declaration.request)
                let required = matcher.requiredMethodAndPath
                let response = declaration.response.makeResponse(relativeTo: folder)
                let file = declaration.source?.file ?? name
                return (
                    declaration.name, StubLocation(fileID: file, filePath: file, line: declaration.source?.line ?? 0), required.method,
                    required.path, { @Sendable (_: StubRequest) in response }
                )
            }
    }
}
