import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLStubs

/// The files of a scenario folder: listing them and making a stub of each.
extension Scenario {

    /// Why `folder` cannot be a scenario folder (missing, a file, a FIFO, unreadable), saying
    /// what to do; `nil` for a folder this process can list.
    static func folderProblem(_ folder: URL) -> String? {
        let path = folder.resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return "the folder does not exist: pass the path of a scenario folder (one holding the fixture files)"
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeDirectory?:
            guard FileManager.default.isReadableFile(atPath: path), (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil else {
                return "the folder cannot be read (permission denied): check that its permissions let this process list it"
            }
            return nil
        case .typeRegular?:
            return "the path is a file, not a folder: pass the scenario's folder (the one holding scenario.json and the fixture files)"
        default:
            return "the path is a FIFO, a socket or a device, not a folder: pass the scenario's folder (it is not read, a read could wait forever)"
        }
    }

    static func listFiles(in folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let base = folder.standardizedFileURL.path
        var files: [String] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base) else { continue }
            let relative = String(path.dropFirst(base.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            files.append(relative)
        }
        return files.sorted()
    }

    /// The declaration a fixture file stands for, relative to `folder`; a file a registered
    /// declaration format reads (a `.har`) stands for all of its declarations.
    static func makeDeclarations(_ relative: String, in folder: URL, manifest: Manifest, problems: inout [String]) -> [StubDeclaration] {
        let url = folder.appendingPathComponent(relative)
        var segments = relative.split(separator: "/").map(String.init)
        let fileName = segments.removeLast()
        let ext = (fileName as NSString).pathExtension
        let stem = (fileName as NSString).deletingPathExtension
        var method = stem
        var query: [String: String?] = [:]
        if let open = stem.firstIndex(of: "[") {
            guard stem.hasSuffix("]") else {
                problems.append("\(relative): a query in a file name is written METHOD[name=value&other].ext")
                return []
            }
            method = String(stem[..<open])
            let inside = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
            for pair in inside.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[parts[0]] = parts.count > 1 ? parts[1] : nil
            }
        }
        if segments.last == "graphql", !methods.contains(method) {
            return makeGraphQLDeclaration(
                relative, in: folder, operation: method, variables: query, segments: segments, manifest: manifest, problems: &problems
            )
            .map { [$0] } ?? []
        }
        if isDeclarationFile(relative) { return declarationFile(relative, in: folder, problems: &problems) }
        guard methods.contains(method) else {
            problems.append(
                "\(relative): the file name must start with an HTTP method (\(methods.joined(separator: ", "))), found \"\(method)\""
                    + " (inside a folder named graphql, a file is named after a GraphQL operation; a file of stubs is read by its format: "
                    + DeclarationFileFormats.unknownFormatProblem(fileNamed: fileName) + ")")
            return []
        }
        guard !ext.isEmpty else {
            problems.append("\(relative): the file needs an extension (.json, .response, .txt, …)")
            return []
        }
        var pathSegments: [String] = []
        for segment in segments {
            if segment.count > 2, segment.hasPrefix("_"), segment.hasSuffix("_") {
                let name = String(segment.dropFirst().dropLast())
                guard name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                    problems.append("\(relative): path parameter folder \"\(segment)\" may hold only letters and digits between the underscores")
                    return []
                }
                pathSegments.append(":" + name)
            } else {
                pathSegments.append(segment)
            }
        }
        let path = "/" + pathSegments.joined(separator: "/")
        guard let response = makeDefinition(relative, at: url, manifest: manifest, problems: &problems) else { return [] }
        let request = RequestPattern(
            method: method, host: manifest.host.map { .equalTo($0) }, path: path.contains("/:") ? .template(path) : .equalTo(path),
            query: query.mapValues { value in value.map { .equalTo($0) } ?? .present })
        return [
            StubDeclaration(
                name: "\(folder.lastPathComponent)/\(relative) (\(method) \(path))", request: request, response: response,
                source: StubDeclaration.Source(file: url.path))
        ]
    }

    /// Whether a registered declaration format reads the file (`recorded.har`,
    /// `more.stubs.json`): one whose name does not start with a method or a GraphQL operation.
    static func isDeclarationFile(_ relative: String) -> Bool {
        let segments = relative.split(separator: "/")
        guard let fileName = segments.last.map(String.init), segments.dropLast().last != "graphql" else { return false }
        let stem = String(fileName.prefix { $0 != "." && $0 != "[" })
        return !methods.contains(stem) && DeclarationFileFormats.format(forFileNamed: fileName) != nil
    }

    /// The declarations of a file a registered format reads, their `file` bodies made relative
    /// to the scenario's folder.
    private static func declarationFile(_ relative: String, in folder: URL, problems: inout [String]) -> [StubDeclaration] {
        let url = folder.appendingPathComponent(relative)
        let directory = (relative as NSString).deletingLastPathComponent
        do {
            return try DeclarationFileFormats.declarations(inFileAt: url).map { declaration in
                var declaration = declaration
                if declaration.source == nil { declaration.source = StubDeclaration.Source(file: url.path) }
                if !directory.isEmpty {
                    declaration.response.body = rebased(declaration.response.body, under: directory)
                    declaration.followingResponses = declaration.followingResponses.map { response in
                        var response = response
                        response.body = rebased(response.body, under: directory)
                        return response
                    }
                }
                return declaration
            }
        } catch let error as StubError {
            if case .invalidDeclaration(_, let path, let problem) = error {
                problems.append("\(relative), at \(path): \(problem)")
            } else {
                problems.append("\(relative): \(error)")
            }
        } catch {
            problems.append("\(relative): \(error)")
        }
        return []
    }

    /// A relative `file` or `fixture` body of a file in `directory`, made relative to the scenario's folder.
    private static func rebased(_ body: ResponseDefinition.Body?, under directory: String) -> ResponseDefinition.Body? {
        switch body {
        case .file(let path) where !path.hasPrefix("/"): return .file(directory + "/" + path)
        case .fixture(let name) where !name.hasPrefix("/"): return .fixture(directory + "/" + name)
        default: return body
        }
    }

    /// The response a fixture file describes, with the manifest's headers, status and delay:
    /// a fixture (`.fixture`, read when a request comes, typed by its extension), or a
    /// `.response` message read now, so the manifest can change its status and headers.
    static func makeDefinition(_ relative: String, at url: URL, manifest: Manifest, problems: inout [String]) -> ResponseDefinition? {
        let ext = url.pathExtension
        var response: ResponseDefinition
        if ext.lowercased() == "response" {
            do {
                guard let definition = try StubResponse(httpMessageFileAt: url).definition else {
                    problems.append("\(relative): the message cannot be said as a declaration")
                    return nil
                }
                response = definition
            } catch {
                problems.append("\(relative): \(error)")
                return nil
            }
        } else {
            if ext.lowercased() == "json", let data = try? Data(contentsOf: url), let verdict = JSONValue.verdict(on: data) {
                problems.append("\(relative): the file \(verdict)")
                return nil
            }
            // A fixture: its Content-Type comes from its extension when it is answered. An event
            // stream (`.sse`) stays a plain body file, as the folder convention has it.
            if ext.lowercased() == "sse" {
                response = ResponseDefinition(headers: ["Content-Type": Fixture.mediaType(forExtension: ext)], body: .file(relative))
            } else {
                response = ResponseDefinition(body: .fixture(relative))
            }
        }
        let override = manifest.files[relative]
        // The manifest's headers fill in what the file does not say; a fixture's type is its extension's.
        for (name, value) in manifest.headers.sorted(by: { $0.key < $1.key }) where response.headers[name] == nil {
            if case .fixture = response.body, name.lowercased() == "content-type" { continue }
            response.headers[name] = value
        }
        for (name, value) in (override?.headers ?? [:]).sorted(by: { $0.key < $1.key }) { response.headers[name] = value }
        if let status = override?.status { response.status = status }
        let delay = override?.delay ?? manifest.delay
        response.requestTime = delay > 0 ? delay : nil
        return response
    }
}
