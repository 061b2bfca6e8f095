import Foundation

/// Where the app finds the fixture files a UI test names (`RemoteResponse.fixture(_:status:headers:)`
/// in URLStubsTesting), given to
/// ``TestRunnerLink/connectIfLaunchedByTest(into:scenarios:fixtures:timeout:environment:)``.
public enum AppFixtures {
    /// In a bundle, as ``Fixture/url(_:in:subdirectory:)`` looks (the app's own: `.main`).
    case bundle(Bundle, subdirectory: String? = nil)
    /// In a folder.
    case folder(URL)

    func response(_ name: String, status: Int, headers: [String: String]) throws -> StubResponse {
        switch self {
        case .bundle(let bundle, let subdirectory):
            return try StubResponse(fixture: name, in: bundle, subdirectory: subdirectory, statusCode: status, headers: headers)
        case .folder(let folder):
            return try StubResponse(fixtureAt: Fixture.url(name, inDirectory: folder), statusCode: status, headers: headers)
        }
    }
}
