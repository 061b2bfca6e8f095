import Foundation

/// A stub as data: which requests it answers, what it answers, and how it ranks among other
/// stubs. It can be written to JSON, read back, sent to another process, diffed and checked
/// before it runs; `registry.stub(declaration)` registers it like any stub.
///
/// ```swift
/// let declaration = StubDeclaration(
///     name: "user 1",
///     request: RequestPattern(method: "GET", path: .equalTo("/users/1")),
///     response: ResponseDefinition(status: 200, body: .json(["id": 1, "name": "Ada"])))
/// try registry.stub(declaration)
/// let json = try JSONEncoder().encode(declaration)     // the same stub, as a file
/// ```
///
/// Its JSON form (``formatVersion`` 1):
///
/// ```json
/// {
///   "version": 1,
///   "name": "user 1",
///   "request": {"method": "GET", "path": {"equalTo": "/users/1"}},
///   "response": {"status": 200, "body": {"json": {"id": 1, "name": "Ada"}}}
/// }
/// ```
///
/// Reading is strict: an unknown member, a pattern kind no library registered, a regular
/// expression that does not compile, a status outside 100...599, a body on a `204` or a
/// `version` newer than this library's fail with ``StubError/invalidDeclaration(source:path:problem:)``,
/// naming the file, the JSON path and what was expected.
public struct StubDeclaration: Sendable, Hashable {
    /// The version of the JSON form this library writes, and the newest it reads.
    public static let formatVersion = 1

    /// A stable identity (a WireMock mapping's `id`), if any.
    public var id: String?
    /// Shown in reports and errors.
    public var name: String?
    /// Which requests the stub answers.
    public var request: RequestPattern
    /// What it answers: to every request, or to the first when ``followingResponses`` follow.
    public var response: ResponseDefinition
    /// The answers to the second and later requests, in turn; the last one repeats (set
    /// ``times`` to stop matching after it). Empty for a stub that answers every request alike.
    public var followingResponses: [ResponseDefinition]
    /// Lower answers first (1 is the highest); among equals, the newest stub. `nil` ranks as
    /// ``defaultPriority``, like every stub made in code.
    public var priority: Int?
    /// The stub answers only while its scenario is in a state, and may move it to another.
    public var scenario: ScenarioStep?
    /// How many requests the stub may answer; `nil` for no limit.
    public var times: Int?
    /// Free-form data that travels with the stub (tags, owners); the registry ignores it.
    public var metadata: JSONValue?
    /// Where the stub was declared: a file and line in code, or the file it was read from.
    public var source: Source?

    /// The priority of a stub that gives none, and of every stub made in code.
    public static let defaultPriority = 5

    /// A state machine shared by stubs: a stub with a ``requiredState`` answers only while
    /// its scenario is in that state (every scenario starts in ``started``), and one with a
    /// ``newState`` moves it there when it answers.
    public struct ScenarioStep: Sendable, Hashable {
        /// The state every scenario starts in.
        public static let started = "Started"
        /// The scenario's name.
        public var name: String
        /// The state the scenario must be in; `nil` for any.
        public var requiredState: String?
        /// The state the scenario moves to when this stub answers; `nil` to stay.
        public var newState: String?

        /// A step of the scenario `name`.
        public init(name: String, requiredState: String? = nil, newState: String? = nil) {
            self.name = name
            self.requiredState = requiredState
            self.newState = newState
        }
    }

    /// Where a declaration came from.
    public struct Source: Sendable, Hashable, CustomStringConvertible {
        /// A `#fileID` or a file's path.
        public var file: String
        /// The 1-based line, when known.
        public var line: Int?

        /// A source.
        public init(file: String, line: Int? = nil) {
            self.file = file
            self.line = line
        }

        /// `file:line`, or the file alone.
        public var description: String { line.map { "\(file):\($0)" } ?? file }
    }

    /// A declaration.
    public init(
        id: String? = nil, name: String? = nil, request: RequestPattern = RequestPattern(), response: ResponseDefinition,
        followingResponses: [ResponseDefinition] = [], priority: Int? = nil, scenario: ScenarioStep? = nil, times: Int? = nil,
        metadata: JSONValue? = nil, source: Source? = nil
    ) {
        self.id = id
        self.name = name
        self.request = request
        self.response = response
        self.followingResponses = followingResponses
        self.priority = priority
        self.scenario = scenario
        self.times = times
        self.metadata = metadata
        self.source = source
    }
}
