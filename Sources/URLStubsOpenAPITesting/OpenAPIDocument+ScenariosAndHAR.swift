import Foundation
import URLStubs
import URLStubsOpenAPI
import URLStubsRecording
import URLStubsScenarios

extension OpenAPIDocument {
    /// Checks the response of every stub of `scenario` (a `Scenario.folder(_:)` reads its files
    /// here) against the operation its method and path select. No request is made: each stub's
    /// responder is called once with a request made from its method and path (`:id` becomes `1`).
    ///
    /// URLStubsOpenAPI checks declarations: `check(Scenario.declarations(inFolder: url), relativeTo: url)`
    /// checks a scenario folder without this library.
    public func check(_ scenario: Scenario) -> ContractReport {
        check(stubs: scenario.stubResponders, ofScenario: scenario.name)
    }

    /// Checks every entry of the HAR file at `url`, request and response, against the
    /// document. Throws a `FixtureError` when the file does not read.
    ///
    /// URLStubsOpenAPI checks declarations: `check(HAR.declarations(contentsOf: url))` checks each
    /// recorded request's response without this library.
    public func check(harAt url: URL) throws -> ContractReport {
        let entries = try HAR.read(contentsOf: url).map { entry in
            RecordedExchange(
                method: entry.method, url: entry.url, requestHeaders: entry.requestHeaders, requestBody: entry.requestBody,
                requestMimeType: entry.requestMimeType, status: entry.status, responseHeaders: entry.responseHeaders,
                responseBody: entry.responseBody, responseMimeType: entry.responseMimeType, failure: entry.failure)
        }
        return check(recorded: entries, inFileNamed: url.lastPathComponent)
    }
}
