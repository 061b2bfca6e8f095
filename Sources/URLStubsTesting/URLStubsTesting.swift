@_exported import URLStubs
@_exported import URLStubsRecording
@_exported import URLStubsScenarios
@_exported import URLStubsTestRunnerLink
@_exported import URLStubsGraphQL
@_exported import URLStubsMultipart
@_exported import URLStubsStreaming
import URLStubsServer

/// What the running test's traits set: read through `StubRegistry.current` and
/// `StubServer.current`, the one spelling of each.
package enum TestScope {
    /// The current test's registry, or `nil` outside a test that has a `.stubbed`, `.stubs { }`,
    /// `.replaying` or `.wireMock` trait.
    @TaskLocal package static var registry: StubRegistry?
    /// The current test's server, or `nil` outside a test with `.stubbed(serving: true)`.
    @TaskLocal package static var server: StubServer?
}
