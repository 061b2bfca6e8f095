// Everything URLStubsOpenAPI takes and returns is a URLStubs type (`StubRegistry`,
// `RequestMatcher`, `StubResponse`), so importing it brings URLStubs too, as URLStubsTesting does.
@_exported import URLStubs
