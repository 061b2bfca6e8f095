import Foundation
import URLStubs

/// Checks a value against a compiled schema, collecting at most ``limit`` violations.
///
/// No recursion follows the value or the schema: what is left to check sits on a list of
/// ``Task``s, and each `oneOf` / `anyOf` branch tried runs as a ``Frame`` of its own above the
/// check that asked, so a value as deep as the readers read costs heap, never the calling
/// thread's stack (a secondary thread on Apple platforms has 512 KB). The path into the value
/// is a stack of steps, spelled out only for a violation or a branch's answer.
struct SchemaValidator {
    /// Deeper than this (value nesting plus `allOf`, `oneOf` / `anyOf`, discriminator hops and
    /// `$ref`s beside other keywords), a check stops with a violation: the readers' 512 levels
    /// are checked in full, and a schema that reaches itself without going deeper into the value
    /// ends.
    static let maximumDepth = 512

    enum Step {
        case key(String)
        case index(Int)
    }

    /// What is left to do. Reports come depth first: a value's own keywords, its members (by
    /// name) or items, then `allOf`, then the alternatives. Each task knows the place in the
    /// value it works at: `level` steps of the path, and its own `step` below them for a value
    /// to check.
    enum Task {
        /// The value at `step` against the schema at `index`, at `depth` levels; with
        /// `skipsWhenFull` (an item of an array), only counted once the check is full.
        case validate(JSONValue, index: Int, depth: Int, step: Step?, level: Int, skipsWhenFull: Bool)
        /// The items from the `next`th on, against `items`.
        case items([JSONValue], schema: Int, next: Int, depth: Int, level: Int)
        case forbiddenMembers([String: JSONValue], index: Int, level: Int)
        case propertyCounts([String: JSONValue], index: Int, level: Int)
        /// The `oneOf` / `anyOf` / discriminator of the schema at `index`, with the answers of
        /// the branches tried so far (`nil`: the branch accepts the value).
        case alternatives(JSONValue, index: Int, depth: Int, level: Int, answers: [SchemaViolation?])
    }

    /// One check: the main one, or the trial of one branch, whose answer is its first violation.
    struct Frame {
        var tasks: [Task]
        var violations: [SchemaViolation] = []
        /// Violations past ``limit``, counted only.
        var uncounted = 0
        let limit: Int
        /// A trial's schema and place (`nil`: the main check).
        let trial: TrialKey?
        /// The path's length when the check began, restored when it ends.
        let stepCount: Int
        /// ``depthStops`` when the check began: its answer is remembered only if it is unchanged.
        let depthStopsBefore: Int
    }

    struct TrialKey: Hashable {
        let schema: Int
        let place: String
    }

    /// Items pushed as tasks at a time: an array of any length costs a bounded list.
    static let itemsAtATime = 64

    /// The most bytes one failed branch adds to a `oneOf` / `anyOf` report.
    static let branchReportLimit = 200
    /// The most failed branches a `oneOf` / `anyOf` report lists.
    static let listedBranches = 5

    let set: SchemaSet
    let limit: Int
    /// Member names (lower-cased) whose values reports print as ``placeholder``: the JSON
    /// fields of a `Scrubbing`.
    var secretNames: Set<String> = []
    var placeholder = Scrubbing.default.placeholder
    var steps: [Step] = []
    /// The check running now; ``suspended`` holds the checks below it, each waiting for the
    /// trial above it to answer.
    var frame: Frame
    var suspended: [Frame] = []
    /// Each branch tried, by schema and place: nested `oneOf`s whose branches share schemas
    /// try each pair once, not once per path through the branches (8 levels of 10 branches:
    /// 80 trials, not 10^8).
    var answers: [TrialKey: SchemaViolation?] = [:]
    /// The answer of the trial that just ended, for the task that asked for it.
    var handedBack: SchemaViolation??
    /// How many times a check stopped at ``maximumDepth``: an answer cut short there depends on
    /// the depth it was asked at, and is not remembered.
    var depthStops = 0
    var patterns = PatternBudget()

    init(set: SchemaSet, limit: Int = 50) {
        self.set = set
        self.limit = limit
        frame = Frame(tasks: [], limit: limit, trial: nil, stepCount: 0, depthStopsBefore: 0)
    }

    /// Every violation of `value` against the schema at `index`.
    /// Values under a member `scrubbing` names print as its placeholder.
    static func violations(of value: JSONValue, against index: Int, in set: SchemaSet, limit: Int = 50, scrubbing: Scrubbing = .default) -> (
        violations: [SchemaViolation], uncounted: Int
    ) {
        var validator = SchemaValidator(set: set, limit: limit)
        validator.secretNames = Set(scrubbing.jsonFields.map { $0.lowercased() })
        validator.placeholder = scrubbing.placeholder
        validator.frame.tasks = [.validate(value, index: index, depth: 0, step: nil, level: 0, skipsWhenFull: false)]
        validator.run()
        return (validator.frame.violations, validator.frame.uncounted)
    }

    /// Runs the tasks of the running check until the main check has none left.
    private mutating func run() {
        while true {
            // A trial is decided by its first violation.
            let isDecided = frame.trial != nil && !frame.violations.isEmpty
            if !isDecided, let task = frame.tasks.popLast() {
                perform(task)
                continue
            }
            guard let key = frame.trial else { return }
            steps.removeLast(steps.count - frame.stepCount)
            let answer = frame.violations.first
            if depthStops == frame.depthStopsBefore { answers[key] = answer }
            handedBack = .some(answer)
            frame = suspended.removeLast()
        }
    }

    private mutating func perform(_ task: Task) {
        switch task {
        case .validate(let value, let index, let depth, let step, let level, let skipsWhenFull):
            if skipsWhenFull, isFull {
                frame.uncounted += 1
                return
            }
            move(to: level)
            if let step { steps.append(step) }
            validate(value, index, depth)
        case .items(let items, let schema, let next, let depth, let level):
            let end = min(items.count, next + Self.itemsAtATime)
            if end < items.count { push(.items(items, schema: schema, next: end, depth: depth, level: level)) }
            for position in (next..<end).reversed() {
                push(
                    .validate(items[position], index: schema, depth: depth + 1, step: .index(position), level: level, skipsWhenFull: true))
            }
        case .forbiddenMembers(let members, let index, let level):
            move(to: level)
            reportAdditional(members, index)
        case .propertyCounts(let members, let index, let level):
            move(to: level)
            checkPropertyCounts(members, index)
        case .alternatives(let value, let index, let depth, let level, let answers):
            move(to: level)
            alternatives(value, index, depth, answers)
        }
    }

    /// The path back to its first `level` steps, where the next task works.
    private mutating func move(to level: Int) {
        if steps.count > level { steps.removeLast(steps.count - level) }
    }

    /// The schema's own keywords now; what checks other values or other schemas, as tasks.
    private mutating func validate(_ value: JSONValue, _ index: Int, _ depth: Int) {
        guard depth <= Self.maximumDepth else { return reportTooDeep(index) }
        guard checkOwnKeywords(value, index) else { return }
        let node = set.nodes[index]
        let level = steps.count
        // Pushed last first: the value's members or items, then allOf, then the alternatives.
        if !(node.oneOf.isEmpty && node.anyOf.isEmpty) {
            push(.alternatives(value, index: index, depth: depth, level: level, answers: []))
        }
        for part in node.allOf.reversed() {
            push(.validate(value, index: part, depth: depth + 1, step: nil, level: level, skipsWhenFull: false))
        }
        switch value {
        case .object(let members):
            checkRequired(members, index)
            push(.propertyCounts(members, index: index, level: level))
            switch node.additionalProperties {
            case .allowed: break
            case .forbidden: push(.forbiddenMembers(members, index: index, level: level))
            case .schema(let schema):
                for name in members.keys.sorted(by: >) where node.propertyIndex[name] == nil {
                    push(
                        .validate(members[name]!, index: schema, depth: depth + 1, step: .key(name), level: level, skipsWhenFull: false))
                }
            }
            for (name, schema) in node.properties.reversed() {
                guard let member = members[name] else { continue }
                push(.validate(member, index: schema, depth: depth + 1, step: .key(name), level: level, skipsWhenFull: false))
            }
        case .array(let items):
            checkItemCounts(items, node)
            if let schema = node.items, !items.isEmpty { push(.items(items, schema: schema, next: 0, depth: depth, level: level)) }
        case .string(let text): validateString(text, node)
        case .integer, .number: validateNumber(value, node)
        case .null, .bool: break
        }
    }

    /// The answer of `branch` for the value at the current place: remembered, handed back by
    /// the trial that just ended, or `nil` when a trial must run first (it is then started,
    /// above the task `resume`, which is pushed back to receive the answer).
    mutating func answer(_ value: JSONValue, against branch: Int, depth: Int, resume: Task) -> SchemaViolation?? {
        if let given = handedBack {
            handedBack = nil
            return given
        }
        let key = TrialKey(schema: branch, place: jsonPath)
        if let known = answers[key] { return known }
        push(resume)
        suspended.append(frame)
        frame = Frame(
            tasks: [.validate(value, index: branch, depth: depth + 1, step: nil, level: steps.count, skipsWhenFull: false)], limit: 1,
            trial: key, stepCount: steps.count, depthStopsBefore: depthStops)
        return nil
    }

    mutating func push(_ task: Task) {
        frame.tasks.append(task)
    }
}
