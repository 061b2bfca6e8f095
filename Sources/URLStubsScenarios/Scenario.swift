import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

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
    /// Its stubs that data says (a folder's files, a HAR archive's entries), registered after
    /// the ones built in code; empty for a scenario built in code.
    let declarations: [StubDeclaration]
    /// Where the declarations' relative `file` bodies are found.
    let folder: URL?

    /// A scenario built in code.
    public init(
        _ name: String, profile: NetworkProfile? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        _ build: (ScenarioStubs) throws -> Void
    ) rethrows {
        let collector = ScenarioStubs(location: StubLocation(fileID: fileID, filePath: filePath, line: line))
        try build(collector)
        self.init(name: name, profile: profile, specs: collector.specs, declarations: [], folder: nil)
    }

    /// A scenario of declared stubs, checked now (a list with one bad declaration makes none).
    ///
    /// ```swift
    /// let recorded = try Scenario("checkout", declarations: HAR.declarations(contentsOf: url))   // URLStubsRecording
    /// ```
    /// - Parameters:
    ///   - name: The scenario's name, as a launch environment or a test activates it.
    ///   - profile: The network conditions its answers go through, if any.
    ///   - declarations: Its stubs, in order (a later one is newer).
    ///   - folder: Where a relative `file` body is found (the current directory when `nil`).
    /// - Throws: `StubError.invalidDeclaration(source:path:problem:)` naming the first bad one.
    public init(_ name: String, profile: NetworkProfile? = nil, declarations: [StubDeclaration], relativeTo folder: URL? = nil) throws {
        for declaration in declarations { try declaration.validate() }
        self.init(name: name, profile: profile, specs: [], declarations: declarations, folder: folder)
    }

    init(name: String, profile: NetworkProfile?, specs: [StubSpec], declarations: [StubDeclaration], folder: URL?) {
        self.name = name
        self.profile = profile
        self.specs = specs
        self.declarations = declarations
        self.folder = folder
    }

    /// A scenario of the stubs in a file a registered declaration format reads: a HAR archive
    /// once URLStubsRecording's format is registered (`HAR.registerFormat()`), with the default
    /// replay options, or a `.stubs.json` file of declarations.
    ///
    /// ```swift
    /// HAR.registerFormat()
    /// let recorded = try Scenario.har(Bundle.main.url(forResource: "checkout", withExtension: "har")!)
    /// let tuned = try Scenario("checkout", declarations: HAR.declarations(contentsOf: url, options: options))
    /// ```
    /// - Throws: `StubError.invalidDeclaration(source:path:problem:)` naming the file when no
    ///   registered format reads it (and what to import and call), or what the format throws.
    public static func har(
        _ url: URL, name: String? = nil, profile: NetworkProfile? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) throws -> Scenario {
        try Scenario(
            name ?? url.deletingPathExtension().lastPathComponent, profile: profile,
            declarations: DeclarationFileFormats.declarations(inFileAt: url), relativeTo: url.deletingLastPathComponent())
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
        var descriptors = scenario.specs.map { spec -> StubDescriptor in
            var wrapped = spec
            if let profile { wrapped.responder = Self.applying(profile, counter: counter, to: spec.responder) }
            if wrapped.name == nil { wrapped.name = "\(scenario.name): \(spec.matcher.description)" }
            return add(wrapped)
        }
        let folder = scenario.folder
        for var declaration in scenario.declarations {
            if declaration.name == nil { declaration.name = "\(scenario.name): \(RequestMatcher(declaration.request).description)" }
            // A profile decides per request, so under one a declaration that data answers
            // alone becomes a stub of code; one a library's transformer, a gate or a step of a
            // state machine answers is registered as it is, unpaced by the profile.
            if let profile, declaration.response.transformer == nil, declaration.response.gate == nil, declaration.scenario == nil {
                let response = declaration.response.makeResponse(relativeTo: folder)
                descriptors.append(
                    add(Self.spec(declaration, of: scenario, responder: Self.applying(profile, counter: counter) { _, _ in response })))
            } else if let descriptor = try? stub(declaration, relativeTo: folder) {
                descriptors.append(descriptor)
            } else {
                // A pattern kind no library registered yet (a folder's GraphQL file before
                // GraphQLPatternKinds.register()): a stub whose matcher says so fails the
                // requests that reach it, and verify() lists it.
                let response = declaration.response.makeResponse(relativeTo: folder)
                descriptors.append(add(Self.spec(declaration, of: scenario) { _, _ in response }))
            }
        }
        replaceStubGroup(named: scenario.name, with: descriptors)
    }

    /// A stub of code for `declaration`, declared at its source.
    private static func spec(
        _ declaration: StubDeclaration, of scenario: Scenario, responder: @escaping @Sendable (StubRequest, Int) throws -> StubResponse
    ) -> StubSpec {
        let file = declaration.source?.file ?? scenario.name
        return StubSpec(
            RequestMatcher(declaration.request), name: declaration.name, times: declaration.times,
            location: StubLocation(fileID: file, filePath: file, line: declaration.source?.line ?? 0), responder: responder)
    }

    /// `respond` with `profile`'s conditions applied, per endpoint.
    private static func applying(
        _ profile: NetworkProfile, counter: RequestCounter, to respond: @escaping @Sendable (StubRequest, Int) throws -> StubResponse
    ) -> @Sendable (StubRequest, Int) throws -> StubResponse {
        { request, activation in
            let endpoint = "\(request.method) \(request.urlPath ?? "/")"
            return profile.apply(to: try respond(request, activation), endpoint: endpoint, index: counter.next(for: endpoint))
        }
    }

    /// Names of the active scenarios, the one with precedence last.
    public var activeScenarios: [String] { stubGroupNames }

    /// Removes the stubs of the scenario named `name`; `false` when it was not active.
    @discardableResult
    public func deactivate(_ name: String) -> Bool {
        guard let descriptors = replaceStubGroup(named: name, with: nil) else { return false }
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
