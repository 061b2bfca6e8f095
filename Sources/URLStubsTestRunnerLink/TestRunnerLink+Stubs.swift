import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// The test's stubs in the app: declarations read with the engine's strict reader and
/// registered with `registry.stub(_:relativeTo:)`, their gates the registry's named gates and
/// their live streams attached to the registry by name; and the offline switch.
extension TestRunnerLink {
    /// Registers the declaration the test sent as `id`, replacing the stub it sent under that
    /// identifier before.
    func addStub(_ json: JSONValue, id: String, expected: ExpectedCount?) throws {
        var declaration = try DeclarationForms.declaration(from: json, source: "the stub \"\(id)\"")
        let answers = [declaration.response] + declaration.followingResponses
        let folder = try folder(for: answers)
        if let folder { declaration = Self.profiles(of: declaration, findingFixturesIn: folder) }
        let streamNames = answers.compactMap(\.streamName)
        streamNames.forEach(attachStream)
        let descriptor = try registry.stub(declaration, relativeTo: folder)
        if let expected { descriptor.expect(expected) }
        lock.lock()
        let replaced = stubs.updateValue(descriptor, forKey: id)
        for gate in Set(answers.compactMap(\.gate)) {
            gateNames.insert(gate)
            waitMatchers[gate, default: []].append(descriptor.matcher)
        }
        for name in Set(streamNames) { waitMatchers[name, default: []].append(descriptor.matcher) }
        lock.unlock()
        if let replaced { registry.remove(replaced) }
        keepOfflineOnTop()
    }

    /// `declaration` with `folder` in the value of each network profile it has: a profile
    /// answers from the definition itself, and a fixture body is found there.
    private static func profiles(of declaration: StubDeclaration, findingFixturesIn folder: URL) -> StubDeclaration {
        func located(_ answer: ResponseDefinition) -> ResponseDefinition {
            guard var transformer = answer.transformer, transformer.name == LinkNetworkProfile.transformerName,
                case .object(var value) = transformer.value
            else { return answer }
            value["folder"] = .string(folder.path)
            transformer.value = .object(value)
            var answer = answer
            answer.transformer = transformer
            return answer
        }
        var declaration = declaration
        declaration.response = located(declaration.response)
        declaration.followingResponses = declaration.followingResponses.map(located)
        return declaration
    }

    /// The response the test sent to release a held request with.
    func replacement(_ json: JSONValue) throws -> StubResponse {
        let definition = try DeclarationForms.response(from: json, source: "the field \"response\"")
        let folder = try folder(for: [definition])
        definition.streamName.map(attachStream)
        return definition.makeResponse(relativeTo: folder)
    }

    /// Where the fixture bodies of `answers` are found (inside the place the app gave); `nil`
    /// when they have none. A file body is refused: it would read any of the app's files by path.
    private func folder(for answers: [ResponseDefinition]) throws -> URL? {
        var found: URL?
        for (index, answer) in answers.enumerated() {
            let path = index == 0 ? "$.response.body" : "$.followingResponses[\(index - 1)].body"
            switch answer.body {
            case .fixture(let name):
                let folder = try fixtures.folder(for: name)
                if let found, found.standardizedFileURL != folder.standardizedFileURL {
                    throw WireProtocolError("\(path): the fixture \"\(name)\" is in \(folder.path), not in \(found.path) with this stub's others")
                }
                found = folder
            case .file(let file):
                throw WireProtocolError(
                    "\(path): the file \"\(file)\" is read by path, and the link reads only fixtures inside the place the app gave "
                        + "connectIfLaunchedByTest: send {\"fixture\": \"name\"} (RemoteResponse(fixture:))")
            default:
                continue
            }
        }
        return found
    }

    // MARK: Gates and streams

    /// The registry's gate `id`, once a stub of the test holds its answers with it.
    func gate(_ id: String) throws -> ResponseGate {
        lock.lock()
        let known = gateNames.contains(id)
        lock.unlock()
        guard known else {
            throw WireProtocolError("no stub holds its responses with the gate \"\(id)\" (gateID): add a stub whose response is held by it first")
        }
        return registry.gate(named: id)
    }

    /// The live stream `id`, once a stub of the test answers with it.
    func stream(_ id: String) throws -> LinkStream {
        lock.lock(); defer { lock.unlock() }
        guard let stream = streams[id] else {
            throw WireProtocolError("no stub answers with the live stream \"\(id)\" (streamID): add a stub whose response is that stream first")
        }
        return stream
    }

    /// Attaches the stream `name` to the registry, the first time a stub names it.
    func attachStream(_ name: String) {
        lock.lock()
        let stream = streams[name] == nil ? LinkStream(name: name) : nil
        if let stream { streams[name] = stream }
        lock.unlock()
        if let stream { registry.attachStream(named: name, source: stream.source) }
    }

    // MARK: Offline

    func setOffline(_ offline: Bool, location: String?) {
        lock.lock()
        let previous = offlineStub
        offlineStub = nil
        lock.unlock()
        if let previous { registry.remove(previous) }
        guard offline else { return }
        let (file, line) = Self.place(location ?? "the UI test")
        let stub = registry.stub(.any, name: "offline (set by the test)", fileID: file, filePath: file, line: line) { _ in
            StubResponse(error: URLError(.notConnectedToInternet))
        }
        lock.lock()
        offlineStub = stub
        offlineLocation = location
        lock.unlock()
    }

    /// A stub or scenario added while offline goes below the offline stub: offline means no
    /// request gets through until the test says otherwise.
    func keepOfflineOnTop() {
        lock.lock()
        let isOffline = offlineStub != nil
        let location = offlineLocation
        lock.unlock()
        if isOffline { setOffline(true, location: location) }
    }
}

extension ResponseDefinition {
    /// The name of the stream this answer's body plays, if it is one.
    fileprivate var streamName: String? {
        if case .stream(let name) = body { return name }
        return nil
    }
}
