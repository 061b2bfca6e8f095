import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubsGraphQL
import URLStubs
import URLStubsRecording

/// A named set of stubs (a fake backend state: "happy", "empty-cart", "slow-network") that a
/// registry activates or deactivates as a unit. Several can be active; the one activated last
/// takes precedence where they overlap.
///
/// ```swift
/// let emptyCart = Scenario("empty-cart") { stubs in
///     stubs.stub(isPath("/cart")) { _ in try StubResponse(json: ["items": []]) }
/// }
/// registry.activate(emptyCart)
/// ```
public struct Scenario: Sendable {
    /// The name used to select it (`URLSTUBS_SCENARIO=empty-cart`).
    public let name: String
    /// Network conditions for all its stubs.
    public var profile: NetworkProfile?
    let specs: [StubSpec]

    /// A scenario built in code.
    public init(
        _ name: String, profile: NetworkProfile? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        _ build: (ScenarioStubs) throws -> Void
    ) rethrows {
        let collector = ScenarioStubs(location: StubLocation(fileID: fileID, filePath: filePath, line: line))
        try build(collector)
        self.init(name: name, profile: profile, specs: collector.specs)
    }

    init(name: String, profile: NetworkProfile?, specs: [StubSpec]) {
        self.name = name
        self.profile = profile
        self.specs = specs
    }

    /// A scenario replaying a HAR archive.
    public static func har(
        _ url: URL, name: String? = nil, profile: NetworkProfile? = nil,
        options: HARReplayOptions = HARReplayOptions(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> Scenario {
        let entries = try HAR.read(contentsOf: url)
        // Replay reads GraphQL and multipart requests by meaning once their strategies are known.
        GraphQLStrategy.register()
        let specs = StubRegistry.harSpecs(
            entries, archive: url.lastPathComponent, options: options,
            location: StubLocation(fileID: fileID, filePath: filePath, line: line))
        return Scenario(name: name ?? url.deletingPathExtension().lastPathComponent, profile: profile, specs: specs)
    }
}

/// Collects the stubs of a scenario built in code; same spelling as `StubRegistry`.
public final class ScenarioStubs {
    fileprivate var specs: [StubSpec] = []
    private let location: StubLocation

    init(location: StubLocation) { self.location = location }

    /// Adds a stub to the scenario.
    public func stub(
        _ matcher: RequestMatcher, name: String? = nil, times: Int? = nil,
        response: @escaping @Sendable (StubRequest) throws -> StubResponse
    ) {
        specs.append(StubSpec(matcher, name: name, times: times, location: location) { request, _ in try response(request) })
    }
}

extension StubRegistry {
    /// Activates `scenario`: its stubs are added, above everything already there. Activating
    /// an active scenario again moves it to the top.
    public func activate(_ scenario: Scenario) {
        deactivate(scenario.name)
        let counter = RequestCounter()
        let profile = scenario.profile
        let descriptors = scenario.specs.map { spec -> StubDescriptor in
            var wrapped = spec
            if let profile {
                let respond = spec.responder
                wrapped.responder = { request, activation in
                    let endpoint = "\(request.method) \(request.urlPath ?? "/")"
                    return profile.apply(to: try respond(request, activation), endpoint: endpoint, index: counter.next(for: endpoint))
                }
            }
            if wrapped.name == nil { wrapped.name = "\(scenario.name): \(spec.matcher.description)" }
            return add(wrapped)
        }
        setScenarioStubs(descriptors, for: scenario.name)
    }

    /// Removes the stubs of the scenario named `name`; `false` when it was not active.
    @discardableResult
    public func deactivate(_ name: String) -> Bool {
        guard let descriptors = setScenarioStubs(nil, for: name) else { return false }
        descriptors.forEach { remove($0) }
        return true
    }
}

/// Counts the requests of one activated scenario per endpoint, for its network profile's
/// generator.
package final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: UInt64] = [:]

    /// A counter at zero for every endpoint.
    package init() {}

    /// The index of this request to `endpoint` (`0` for the first), counting it.
    package func next(for endpoint: String) -> UInt64 {
        lock.lock(); defer { lock.unlock() }
        let index = counts[endpoint, default: 0]
        counts[endpoint] = index + 1
        return index
    }
}
