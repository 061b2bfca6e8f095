@_exported import URLStubs
@_exported import URLStubsRecording
@_exported import URLStubsScenarios
@_exported import URLStubsTestRunnerLink
@_exported import URLStubsGraphQL
@_exported import URLStubsMultipart
@_exported import URLStubsStreaming

/// The registry of the test running now, set by the `.stubbed` trait (Swift Testing).
public enum StubScope {
    /// The current test's registry, or `nil` outside a test that has the trait.
    @TaskLocal public static var registry: StubRegistry?
}
