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

    static func makeSpec(
        _ relative: String, in folder: URL, manifest: Manifest, location: StubLocation,
        problems: inout [String]
    ) -> StubSpec? {
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
                return nil
            }
            method = String(stem[..<open])
            let inside = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
            for pair in inside.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                query[parts[0]] = parts.count > 1 ? parts[1] : nil
            }
        }
        if segments.last == "graphql", !methods.contains(method) {
            return makeGraphQLSpec(
                relative, in: folder, operation: method, variables: query, segments: segments,
                manifest: manifest, location: location, problems: &problems)
        }
        guard methods.contains(method) else {
            problems.append(
                "\(relative): the file name must start with an HTTP method (\(methods.joined(separator: ", "))), found \"\(method)\""
                    + " (inside a folder named graphql, a file is named after a GraphQL operation)")
            return nil
        }
        guard !ext.isEmpty else {
            problems.append("\(relative): the file needs an extension (.json, .response, .txt, …)")
            return nil
        }
        var pathSegments: [String] = []
        for segment in segments {
            if segment.count > 2, segment.hasPrefix("_"), segment.hasSuffix("_") {
                let name = String(segment.dropFirst().dropLast())
                guard name.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                    problems.append("\(relative): path parameter folder \"\(segment)\" may hold only letters and digits between the underscores")
                    return nil
                }
                pathSegments.append(":" + name)
            } else {
                pathSegments.append(segment)
            }
        }
        let path = "/" + pathSegments.joined(separator: "/")
        guard let response = makeResponse(relative, at: url, manifest: manifest, problems: &problems) else { return nil }
        var matcher = isMethod(StubRequest.Method(rawValue: method)) && isPath(path)
        if let host = manifest.host { matcher = isHost(host) && matcher }
        if !query.isEmpty { matcher = matcher && containsQueryParams(query) }
        let fixed = response
        return StubSpec(
            matcher, name: "\(folder.lastPathComponent)/\(relative) (\(method) \(path))", times: nil,
            location: location
        ) { _, _ in fixed }
    }

    /// The response a fixture file describes, with the manifest's headers, status and delay.
    static func makeResponse(_ relative: String, at url: URL, manifest: Manifest, problems: inout [String]) -> StubResponse? {
        let ext = url.pathExtension
        var response: StubResponse
        if ext.lowercased() == "response" {
            do {
                response = try StubResponse(httpMessageFileAt: url)
            } catch {
                problems.append("\(relative): \(error)")
                return nil
            }
        } else {
            if ext.lowercased() == "json", let data = try? Data(contentsOf: url), let verdict = JSONValue.verdict(on: data) {
                problems.append("\(relative): the file \(verdict)")
                return nil
            }
            response = StubResponse(bodyFileAt: url, headers: ["Content-Type": Fixture.mediaType(forExtension: ext)])
        }
        let override = manifest.files[relative]
        for (name, value) in manifest.headers where response.headers[name] == nil { response.headers[name] = value }
        for (name, value) in override?.headers ?? [:] { response.headers[name] = value }
        if let status = override?.status { response.statusCode = status }
        response.requestDelay = override?.delay ?? manifest.delay
        return response
    }
}
