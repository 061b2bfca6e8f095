import Foundation

extension RequestPattern {
    /// The first part of the pattern that cannot match, with its JSON path under `path`: a
    /// regular expression or template that does not compile, a JSON path that does not parse,
    /// a pattern kind no library registered or whose value it refuses. Checks without building
    /// the matcher, so reading a file of declarations stays cheap.
    func firstProblem(at path: String) -> (path: String, problem: String)? {
        func text(_ pattern: TextPattern?, _ at: String) -> (path: String, problem: String)? {
            guard let pattern else { return nil }
            for expression in pattern.regularExpressions where (try? BudgetedRegex(expression)) == nil {
                return (at, "invalid regular expression /\(expression)/: \(RegexDiagnosis.explain(expression))")
            }
            for template in pattern.templates {
                do { _ = try PathPattern(template) } catch { return (at, "invalid path template \"\(template)\": \(error)") }
            }
            return nil
        }
        if let found = text(url, "\(path).url") ?? text(host, "\(path).host") ?? text(self.path, "\(path).path") { return found }
        for (label, group) in [("query", query), ("headers", headers), ("cookies", cookies)] {
            for (name, pattern) in group.sorted(by: { $0.key < $1.key }) {
                if let found = text(pattern, DeclarationReader.member("\(path).\(label)", name)) { return found }
            }
        }
        for (index, pattern) in body.enumerated() {
            if let problem = pattern.problem { return ("\(path).body[\(index)]", problem) }
        }
        for (label, group) in [("anyOf", anyOf), ("noneOf", noneOf), ("allOf", allOf)] {
            for (index, pattern) in group.enumerated() {
                if let found = pattern.firstProblem(at: "\(path).\(label)[\(index)]") { return found }
            }
        }
        return nil
    }
}

extension BodyPattern {
    /// Why this body pattern cannot match, if it cannot.
    var problem: String? {
        switch self {
        case .equalTo, .binaryEqualTo, .contains, .json: return nil
        case .matches(let expression):
            return (try? BudgetedRegex(expression)) == nil
                ? "invalid regular expression /\(expression)/: \(RegexDiagnosis.explain(expression))" : nil
        case .jsonPath(let path, let pattern):
            do {
                _ = try JSONPath(path)
                if let pattern { _ = try TextCheck(pattern) }
                return nil
            } catch {
                return "\(error)"
            }
        case .kind(let name, let value):
            guard let kind = RequestPatternKinds.kind(named: name) else {
                let known = RequestPatternKinds.names
                return "no library registered the pattern kind \"\(name)\" (registered: "
                    + (known.isEmpty ? "none" : known.joined(separator: ", "))
                    + "); import the library that defines it (URLStubsGraphQL, URLStubsMultipart) and call its kinds' register() "
                    + "before reading the declaration"
            }
            return kind.matcher(for: value).problems.first
        }
    }
}
