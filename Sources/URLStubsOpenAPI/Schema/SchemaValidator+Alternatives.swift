import Foundation
import URLStubs

/// `oneOf`, `anyOf` and `discriminator`: each branch is tried once per place in the value (as a
/// trial of its own, see ``SchemaValidator/answer(_:against:depth:resume:)``), then the answers
/// decide what is reported.
extension SchemaValidator {
    /// Tries the branches not yet in `answers` (every `oneOf` branch; `anyOf` branches up to
    /// the first that accepts), then reports, or checks the schema a discriminator selects.
    mutating func alternatives(_ value: JSONValue, _ index: Int, _ depth: Int, _ answers: [SchemaViolation?]) {
        let node = set.nodes[index]
        var tagged: [String: JSONValue]?
        if let discriminator = node.discriminator, case .object(let members) = value {
            if discriminator.isExplicit { return dispatch(members, value, node, discriminator, depth) }
            // Without a mapping, the schema the value names is checked only when plain
            // `oneOf` / `anyOf` refuses the value: its report is then the sharper one.
            if case .string(let tag)? = members[discriminator.propertyName], discriminator.mapping.contains(where: { $0.value == tag }) {
                tagged = members
            }
        }
        var answers = answers
        while let branch = Self.nextBranch(node, answers) {
            let resume = Task.alternatives(value, index: index, depth: depth, level: steps.count, answers: answers)
            guard let answer = answer(value, against: branch, depth: depth, resume: resume) else { return }
            answers.append(answer)
        }
        let oneOf = Array(answers.prefix(node.oneOf.count))
        let anyOf = Array(answers.dropFirst(node.oneOf.count))
        if let tagged, let discriminator = node.discriminator {
            let refused =
                (!node.oneOf.isEmpty && oneOf.filter { $0 == nil }.count != 1) || (!node.anyOf.isEmpty && !anyOf.contains { $0 == nil })
            if refused { return dispatch(tagged, value, node, discriminator, depth) }
        }
        if !node.oneOf.isEmpty { reportOneOf(node, oneOf) }
        if !node.anyOf.isEmpty { reportAnyOf(node, anyOf) }
    }

    /// The branch to try after those `answers` hold, or `nil` when they decide.
    private static func nextBranch(_ node: SchemaNode, _ answers: [SchemaViolation?]) -> Int? {
        if answers.count < node.oneOf.count { return node.oneOf[answers.count] }
        let anyOf = answers.dropFirst(node.oneOf.count)
        guard anyOf.count < node.anyOf.count, !anyOf.contains(where: { $0 == nil }) else { return nil }
        return node.anyOf[anyOf.count]
    }

    /// What one branch's violation adds to a report of failed alternatives.
    static func branchFailure(_ position: Int, _ violation: SchemaViolation) -> String {
        boundedReportLine("\(position): \(violation)", limit: branchReportLimit)
    }

    /// The failures of the first ``listedBranches`` branches, then how many more failed.
    static func failureList(_ failures: [String]) -> String {
        let listed = failures.prefix(listedBranches).joined(separator: "; ")
        return failures.count > listedBranches ? listed + "; \(failures.count - listedBranches) more" : listed
    }

    private mutating func reportOneOf(_ node: SchemaNode, _ answers: [SchemaViolation?]) {
        var matching: [Int] = []
        var failures: [String] = []
        for (position, answer) in answers.enumerated() {
            if let violation = answer {
                failures.append(Self.branchFailure(position, violation))
            } else {
                matching.append(position)
            }
        }
        if matching.isEmpty {
            report(
                node, "oneOf", expected: "exactly one of the \(node.oneOf.count) oneOf schemas",
                found: "a value none accepts (\(Self.failureList(failures)))")
        } else if matching.count > 1 {
            report(
                node, "oneOf", expected: "exactly one of the \(node.oneOf.count) oneOf schemas",
                found: "a value \(matching.count) accept (\(matching.map(String.init).joined(separator: ", ")))")
        }
    }

    /// `answers` stop at the first branch that accepts.
    private mutating func reportAnyOf(_ node: SchemaNode, _ answers: [SchemaViolation?]) {
        var failures: [String] = []
        for (position, answer) in answers.enumerated() {
            guard let violation = answer else { return }
            failures.append(Self.branchFailure(position, violation))
        }
        report(
            node, "anyOf", expected: "at least one of the \(node.anyOf.count) anyOf schemas",
            found: "a value none accepts (\(Self.failureList(failures)))")
    }

    /// `oneOf` / `anyOf` with a discriminator: the property's value picks the one schema.
    private mutating func dispatch(
        _ members: [String: JSONValue], _ value: JSONValue, _ node: SchemaNode, _ discriminator: SchemaNode.Discriminator, _ depth: Int
    ) {
        let names = discriminator.mapping.map { "\"\($0.value)\"" }.joined(separator: ", ")
        guard let tag = members[discriminator.propertyName] else {
            report(
                node, "discriminator/propertyName", expected: "the discriminator property \"\(discriminator.propertyName)\" (\(names))",
                found: "an object without it")
            return
        }
        guard case .string(let text) = tag, let target = discriminator.mapping.first(where: { $0.value == text }) else {
            steps.append(.key(discriminator.propertyName))
            report(node, "discriminator/mapping", expected: "one of \(names)", found: tag.brief)
            steps.removeLast()
            return
        }
        push(.validate(value, index: target.schema, depth: depth + 1, step: nil, level: steps.count, skipsWhenFull: false))
    }
}
