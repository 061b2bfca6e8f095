import Foundation
import URLStubs
import URLStubsRecording
import URLStubsScenarios

// The HAR scenario with replay options, from when URLStubsScenarios imported URLStubsRecording:
// a HAR archive is now a declaration file format, and a scenario of declarations takes any.

extension Scenario {
    /// A scenario replaying a HAR archive with `options`: its declarations
    /// (`HAR.declarations(contentsOf:options:)`) as a scenario.
    @available(
        *, deprecated,
        message:
            "use Scenario(name, profile:, declarations: HAR.declarations(contentsOf: url, options: options), relativeTo:); Scenario.har(url) reads an archive with the default options"
    )
    public static func har(
        _ url: URL, name: String? = nil, profile: NetworkProfile? = nil, options: HARReplayOptions,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> Scenario {
        try Scenario(
            name ?? url.deletingPathExtension().lastPathComponent, profile: profile,
            declarations: HAR.declarations(contentsOf: url, options: options), relativeTo: url.deletingLastPathComponent())
    }
}
