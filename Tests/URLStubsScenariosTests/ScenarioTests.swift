import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
import URLStubsRecording
import URLStubsScenarios
@testable import TestSupport

@Suite("Scenarios")
struct ScenarioTests {
    let root = fixturesFolder.appendingPathComponent("Scenarios")

    @Test(arguments: FetchAPI.allCases)
    func scenarioFolderIsServed(api: FetchAPI) async throws {
        let registry = StubRegistry()
        registry.activate(try Scenario.folder(root.appendingPathComponent("happy")))
        #expect(registry.activeScenarios == ["happy"])
        let products = await fetch("https://api.shop.test/api/products", from: registry, using: api)
        #expect(products.body.contains("Kettle"))
        #expect(products.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(products.response?.value(forHTTPHeaderField: "X-Backend") == "fake", "manifest headers apply")
        let one = await fetch("https://api.shop.test/api/products/42", from: registry, using: api)
        #expect(one.body.contains("from-folder"), "_id_ is a path parameter")
        let cart = await fetch("https://api.shop.test/api/cart", from: registry, using: api)
        #expect(cart.response?.value(forHTTPHeaderField: "X-Cart") == "full", "per-file manifest headers apply")
        let added = await fetch(request("https://api.shop.test/api/cart", method: "POST", body: Data("{}".utf8)), from: registry, using: api)
        #expect(added.statusCode == 201, ".response files give the status")
        #expect(await fetch("https://api.shop.test/api/search?q=tea", from: registry, using: api).body.contains("Teapot"))
        #expect(await fetch("https://api.shop.test/api/search?q=rust", from: registry, using: api).body.contains("[]"))
        #expect(await fetch("https://other.test/api/products", from: registry, using: api).stubError != nil, "the manifest host applies")
    }

    @Test func layeredScenariosLaterWinsAndDeactivationRestores() async throws {
        let registry = StubRegistry()
        let happy = try Scenario.folder(root.appendingPathComponent("happy"))
        let empty = try Scenario.folder(root.appendingPathComponent("empty-cart"))
        registry.activate(happy)
        registry.activate(empty)
        #expect(registry.activeScenarios == ["happy", "empty-cart"])
        let cart = await fetch("https://api.shop.test/api/cart", from: registry)
        #expect(cart.body.contains(#""items":[]"#))
        #expect(cart.response?.value(forHTTPHeaderField: "X-Cart") == "empty")
        #expect(await fetch("https://api.shop.test/api/products", from: registry).body.contains("Kettle"), "happy still answers the rest")
        registry.activate(happy)
        #expect(registry.activeScenarios == ["empty-cart", "happy"], "re-activating moves a scenario to the top")
        #expect(await fetch("https://api.shop.test/api/cart", from: registry).body.contains("quantity"))
        #expect(registry.deactivate("happy"))
        #expect(!registry.deactivate("happy"))
        #expect(await fetch("https://api.shop.test/api/cart", from: registry).body.contains(#""items":[]"#))
    }

    @Test func scenarioBuiltInCodeAndFromHAR() async throws {
        // A HAR archive is a declaration file format URLStubsRecording registers.
        HAR.registerFormat()
        let registry = StubRegistry()
        registry.activate(try Scenario.har(fixturesFolder.appendingPathComponent("checkout.har")))
        registry.activate(
            Scenario("sold-out") { stubs in
                stubs.stub(isPath("/api/cart")) { _ in StubResponse(data: Data("sold out".utf8), statusCode: 409) }
            })
        #expect(registry.activeScenarios == ["checkout", "sold-out"])
        #expect(await fetch("https://shop.test/api/cart?currency=EUR&items=2", from: registry).statusCode == 409)
        #expect(await fetch("https://shop.test/api/status", from: registry).body == "english")
    }

    @Test func everyProblemOfAMalformedFolderIsListed() {
        #expect {
            try Scenario.folder(fixturesFolder.appendingPathComponent("BrokenScenarios/broken"))
        } throws: { error in
            // A folder's problems are a FixtureError (the domain of files the test names).
            guard let error = error as? FixtureError, error.kind == .invalidFolder else { return false }
            let path = error.source
            let problems = error.found.split(separator: "\n", omittingEmptySubsequences: false)
            let text = error.found
            let expectedFragments = [
                "unknown key \"color\"",
                "\"host\" must be a string",
                "profile.failureRate must be between 0 and 1",
                "profile.downloadSpeed must be a positive number of KB/s (400 is 3G)",
                "profile.failures holds \"meteor\"",
                "files[\"api/missing/GET.json\"].status must be a status code",
                "\"files\" names api/missing/GET.json, which does not exist",
                "api/users/FETCH.json: the file name must start with an HTTP method",
                "api/users/GET.json: the file is not valid JSON",
                "api/users/POST.response: POST.response:1: expected a status code from 100 to 599",
                "api/users/PUT: the file needs an extension",
                "api/_bad-name_/GET.json: path parameter folder \"_bad-name_\"",
                "api/graphql/2Fast.json: \"2Fast\" is not a GraphQL operation name",
            ]
            for fragment in expectedFragments where !text.contains(fragment) {
                Issue.record("missing problem: \(fragment)\nin:\n\(text)")
            }
            return path.hasSuffix("broken") && problems.count == expectedFragments.count
        }
    }

    @Test func unknownScenarioNamesFailWithTheKnownOnes() throws {
        let scenarios = try Scenario.folders(in: root)
        #expect(scenarios.map(\.name) == ["empty-cart", "happy", "slow-network"])
        #expect {
            try ScenarioLauncher.activate(names: ["happy", "nope", "missing"], available: scenarios, into: StubRegistry())
        } throws: { error in
            // An unknown name is a StubError (stubs asked for that do not exist).
            (error as? StubError) == .library(ScenarioFailure.unknownScenarios(["nope", "missing"], known: ["empty-cart", "happy", "slow-network"]))
                && "\(error)".contains(#"Known scenarios: "empty-cart", "happy", "slow-network"."#)
        }
    }

    @Test func seededFailureProfilesGiveIdenticalOutcomesAcrossRuns() async {
        func run(seed: UInt64) async -> [String] {
            let registry = StubRegistry()
            let profile = NetworkProfile(latency: 0.01, jitter: 0.01, failureRate: 0.4, failures: [.offline, .serverError, .timeout], seed: seed)
            registry.activate(
                Scenario("flaky", profile: profile) { stubs in
                    stubs.stub(.any) { _ in StubResponse(data: Data("ok".utf8)) }
                })
            var outcomes: [String] = []
            for _ in 0..<30 {
                let result = await fetch("https://flaky.test/", from: registry)
                outcomes.append(result.urlError.map { "error \($0.code.rawValue)" } ?? "status \(result.statusCode ?? 0)")
            }
            return outcomes
        }
        let first = await run(seed: 1234)
        let second = await run(seed: 1234)
        #expect(first == second, "the same seed replays the same run")
        #expect(first.contains("status 200") && first.contains { $0 != "status 200" }, "a 40% failure rate mixes outcomes: \(first)")
        #expect(await run(seed: 99) != first, "another seed, another run")
    }

    /// An app fires several requests at launch in an order that varies between runs: each
    /// endpoint's outcomes must not depend on how the others interleave with it.
    @Test func seededOutcomesPerEndpointDoNotDependOnTheOrderOfOtherRequests() async {
        func run(order: [String]) async -> [String: [String]] {
            let registry = StubRegistry()
            let profile = NetworkProfile(failureRate: 0.5, failures: [.offline, .serverError], seed: 7)
            registry.activate(
                Scenario("flaky", profile: profile) { stubs in
                    stubs.stub(.any) { _ in StubResponse(data: Data("ok".utf8)) }
                })
            var outcomes: [String: [String]] = [:]
            for path in order {
                let result = await fetch("https://flaky.test\(path)", from: registry)
                outcomes[path, default: []].append(result.urlError.map { "error \($0.code.rawValue)" } ?? "status \(result.statusCode ?? 0)")
            }
            return outcomes
        }
        let paths = ["/a", "/b", "/c"]
        let interleaved = (0..<8).flatMap { _ in paths }
        let grouped = paths.flatMap { Array(repeating: $0, count: 8) }
        let first = await run(order: interleaved)
        let second = await run(order: grouped.reversed())
        #expect(first == second)
    }

    @Test func profileSlowsTheWholeScenario() async throws {
        let registry = StubRegistry()
        registry.activate(try Scenario.folder(root.appendingPathComponent("slow-network")))
        let start = Date()
        let result = await fetch("https://api.shop.test/api/products", from: registry)
        #expect(result.body.contains("products"))
        #expect(Date().timeIntervalSince(start) >= 0.15, "latency 0.2 ± 0.05 s applies")
    }

    // MARK: Selection at launch, in a child process (Process: macOS and Linux only)

    #if os(macOS) || os(Linux)
    /// The probe executable, built next to the tests.
    private static let probe = builtExecutable("urlstubs-scenario-probe")

    private func runProbe(_ arguments: [String], environment: [String: String]) async throws -> String {
        let probe = try #require(Self.probe, "urlstubs-scenario-probe is built by `swift build`")
        return try await runChildProcess(
            probe, arguments: [root.path] + arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }
        ).output
    }

    @Test func childProcessChoosesItsScenarioFromTheEnvironment() async throws {
        let happy = try await runProbe(["https://api.shop.test/api/cart"], environment: ["URLSTUBS_SCENARIO": "happy"])
        #expect(happy.contains("scenarios: happy"))
        #expect(happy.contains(#""quantity":2"#))
        let layered = try await runProbe(["https://api.shop.test/api/cart"], environment: ["URLSTUBS_SCENARIO": "happy,empty-cart"])
        #expect(layered.contains(#""items":[]"#))
        let argument = try await runProbe(
            ["https://api.shop.test/api/cart", "-URLStubsScenario", "empty-cart"],
            environment: ["URLSTUBS_SCENARIO": "happy"])
        #expect(argument.contains("scenarios: empty-cart"), "the launch argument wins over the environment")
        let unknown = try await runProbe(["https://api.shop.test/api/cart"], environment: ["URLSTUBS_SCENARIO": "nope"])
        #expect(unknown.contains(#"unknown scenario "nope". Known scenarios: "empty-cart", "happy", "slow-network"."#))
    }
    #endif
}
