import Foundation
import URLStubs

extension HARRecorder {
    /// The file recorded to or replayed from: the URL given to
    /// `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`.
    @available(*, deprecated, message: "the URL you passed to record(to:)")
    public var file: URL { cassette }

    /// What is scrubbed: the rules passed to
    /// `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`.
    @available(*, deprecated, message: "what you passed to record(to:scrubbing:)")
    public var scrubbing: Scrubbing { scrubbingRules }
}
