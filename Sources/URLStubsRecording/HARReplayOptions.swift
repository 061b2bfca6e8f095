import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// How HAR entries become stubs.
public struct HARReplayOptions: Sendable {
    /// Use each entry's `time` as the stub's request time.
    public var replaysTimings = false
    /// Request headers ignored when ranking entries that share method, URL and body.
    public var ignoredHeaders: Set<String> = ["user-agent", "accept-encoding", "connection", "content-length", "host"]

    /// Recorded values replaced by this policy's placeholder match any live value.
    public var scrubbing: Scrubbing?

    /// Query parameters, headers and JSON body paths that change on every run (a cache
    /// buster, a request id, a timestamp): left out when deciding which recorded request a
    /// live one is, so a recording made yesterday still matches today's requests.
    ///
    /// ```swift
    /// var options = HARReplayOptions()
    /// options.volatileFields = VolatileFields(queryParameters: ["_"], jsonPaths: ["$.sentAt", "$.variables.clientTime"])
    /// ```
    public var volatileFields: VolatileFields = VolatileFields()

    /// When `true`, every recorded request the test never made is a problem of
    /// `StubRegistry.verify(includePassedThrough:)`, named by method and URL: the recording
    /// holds requests the code no longer sends and should be re-recorded. `false` by default
    /// here (a shared fixture archive may hold more than one test uses); recordings made by
    /// `StubRegistry.record(to:mode:scrubbing:volatileFields:reportsUnusedEntries:environment:testName:fileID:filePath:line:)`
    /// turn it on.
    public var reportsUnusedEntries = false

    /// The defaults: no timing, common transport headers ignored, nothing volatile.
    public init(replaysTimings: Bool = false, volatileFields: VolatileFields = VolatileFields()) {
        self.replaysTimings = replaysTimings
        self.volatileFields = volatileFields
    }
}
