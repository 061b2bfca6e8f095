import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import URLStubs
@testable import URLStubsTestRunnerLink
@testable import URLStubsTesting
@testable import TestSupport

/// What crosses the link is the engine's declaration: the same declaration answers alike in
/// process and in the app, network profiles draw alike, and what the app cannot take (a kind it
/// has not registered, a file by path) is refused naming what to do.
@Suite("AppBackend sends declarations")
struct AppBackendDeclarationTests {
    /// A declaration with a part of each kind the link carries.
    private var declaration: StubDeclaration {
        var pattern = RequestPattern(method: "POST", path: .template("/carts/:id"))
        pattern.headers["Accept"] = .contains("json")
        pattern.query["dry"] = .absent
        pattern.body = [.json(["sku": "tea"], ignoreExtraElements: true)]
        let headers = HeaderFields([(name: "Set-Cookie", value: "a=1"), (name: "Set-Cookie", value: "b=2"), (name: "X-Cart", value: "7")])
        return StubDeclaration(
            name: "cart", request: pattern,
            response: ResponseDefinition(status: 201, headers: headers, body: .json(["id": 7, "items": ["tea"]]), requestTime: 0.05))
    }

    @Test func aDeclarationAnswersAlikeInProcessAndInTheApp() async throws {
        let inProcess = StubRegistry()
        try inProcess.stub(declaration)
        let backend = try AppBackend()
        defer { backend.close() }
        let app = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: app))
        try await backend.stub(RemoteMatcher(declaration.request), name: "cart", response: RemoteResponse(declaration.response))

        let requests = [
            request("https://shop.test/carts/7", method: "POST", body: Data(#"{"sku":"tea","n":1}"#.utf8), headers: ["Accept": "application/json"]),
            request("https://shop.test/carts/7?dry=1", method: "POST", body: Data(#"{"sku":"tea"}"#.utf8), headers: ["Accept": "application/json"]),
            request("https://shop.test/carts/7", method: "POST", body: Data(#"{"sku":"tea"}"#.utf8), headers: ["Accept": "text/html"]),
        ]
        for sent in requests {
            let here = await fetch(sent, from: inProcess)
            let there = await fetch(sent, from: app)
            #expect(here.statusCode == there.statusCode, "\(sent)")
            #expect(here.body == there.body, "\(sent)")
            #expect(here.response?.value(forHTTPHeaderField: "Set-Cookie") == there.response?.value(forHTTPHeaderField: "Set-Cookie"))
            #expect(here.urlError?.code == there.urlError?.code, "\(sent)")
        }
        #expect(await fetch(requests[0], from: app).statusCode == 201, "the first request matches")

        // The app holds the declaration itself, with the test's line as its source.
        let held = try #require(app.declarations.first)
        #expect(held.request == declaration.request)
        #expect(held.response == declaration.response)
        #expect(held.source?.file.hasSuffix("AppBackendDeclarationTests.swift") == true, "\(String(describing: held.source))")
    }

    @Test func aNetworkProfileDrawsAsAScenariosProfileDoesSeedForSeed() async throws {
        let profile = NetworkProfile(failureRate: 0.5, failures: [.serverError, .offline, .timeout], seed: 7)
        let inProcess = StubRegistry()
        inProcess.activate(Scenario("flaky", profile: profile) { stubs in stubs.stub(isPath("/flaky")) { _ in StubResponse(string: "ok") } })
        let backend = try AppBackend()
        defer { backend.close() }
        let app = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: app))
        try await backend.stub(.get("/flaky"), response: RemoteResponse(string: "ok").networkProfile(profile))

        func outcome(_ result: FetchResult) -> String {
            result.urlError.map { "error \($0.code.rawValue)" } ?? "\(result.statusCode ?? 0) \(result.body)"
        }
        var here: [String] = []
        var there: [String] = []
        for _ in 0..<12 {
            here.append(outcome(await fetch("https://shop.test/flaky", from: inProcess)))
            there.append(outcome(await fetch("https://shop.test/flaky", from: app)))
        }
        #expect(here == there)
        #expect(Set(there).count > 1, "a rate of 0.5 over 12 requests both fails and answers: \(there)")
    }

    @Test func aKindTheAppHasNotRegisteredNamesTheCallToAdd() {
        let problem = #"no library registered the pattern kind "graphQLOperation" (registered: none)"#
        #expect(
            DeclarationForms.withRegistrationHint(problem)
                == problem
                + ". In the app, import URLStubsGraphQL and call GraphQLPatternKinds.register() before TestRunnerLink.connectIfLaunchedByTest")
        #expect(DeclarationForms.withRegistrationHint("status 600 is not an HTTP status") == "status 600 is not an HTTP status")
    }

    @Test func aFileByPathIsRefusedAndAFixtureIsFoundInTheAppsFolder() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let app = StubRegistry()
        _ = try #require(try await connectApp(backend.launchEnvironment, registry: app))
        let refused = await errorText {
            try await backend.stub(.get("/secret"), response: RemoteResponse(ResponseDefinition(body: .file("/etc/hosts"))))
        }
        #expect(refused.contains(#"$.response.body: the file "/etc/hosts" is read by path"#), "\(refused)")
        #expect(refused.contains(#"send {"fixture": "name"}"#), "\(refused)")
        #expect(await fetch("https://shop.test/secret", from: app).statusCode == nil, "nothing was added")

        try await backend.stub(.get("/users"), response: RemoteResponse(ResponseDefinition(status: 203, body: .fixture("users.json"))))
        let users = await fetch("https://shop.test/users", from: app)
        #expect(users.statusCode == 203)
        #expect(users.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(users.body.contains(#""name""#), "\(users.body)")

        // A network profile answers from the definition, and finds its fixture in the same place.
        try await backend.stub(
            .get("/slow-users"), response: RemoteResponse(fixture: "users.json").networkProfile(NetworkProfile(latency: 0.05, seed: 1)))
        let slow = await fetch("https://shop.test/slow-users", from: app)
        #expect(slow.statusCode == 200)
        #expect(slow.body == users.body)
    }

    #if os(macOS) || os(Linux)
    /// The probe app registers no GraphQL kinds: the test's GraphQL matcher is refused, naming
    /// the call the app adds at launch, and the link goes on.
    @Test func anAppWithoutTheGraphQLKindsRefusesAGraphQLMatcherNamingTheCall() async throws {
        let backend = try AppBackend()
        defer { backend.close() }
        let app = try await AppProbe.start(environment: backend.launchEnvironment)
        defer { app.kill() }
        _ = try await app.line(startingWith: "launch")
        let refused = await errorText {
            try await backend.stub(RemoteMatcher(graphQLOperation: "Cart"), response: RemoteResponse(json: ["data": [:]]))
        }
        #expect(refused.contains(#"no library registered the pattern kind "graphQLOperation""#), "\(refused)")
        #expect(refused.contains("In the app, import URLStubsGraphQL and call GraphQLPatternKinds.register()"), "\(refused)")
        try await backend.stub(.get("/after"), response: RemoteResponse(string: "still linked"))
        app.send("get after https://api.shop.test/after")
        #expect(try await app.line(startingWith: "after") == "after: 200 still linked")
        #expect(try await app.quit() == 0, "\(app.printed)")
    }
    #endif
}
