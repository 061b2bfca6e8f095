import Foundation
import URLStubs

/// What a check without requests found: every violation with what broke it, and what could
/// not be checked without a request (and why).
///
/// ```swift
/// let report = try contract.check(Scenario.folder(scenarioURL))
/// #expect(report.isSuccess, "\(report)")
/// ```
public struct ContractReport: Sendable, CustomStringConvertible {
    /// One violation, and what broke it.
    public struct Finding: Sendable, CustomStringConvertible {
        /// The stub (`"pet" (MyAppTests/ShopTests.swift:12)`), the declaration
        /// (`"pet" (Stubs/pets.json)`), the scenario file, or the HAR entry
        /// (`shop.har entry 3: GET https://api.shop.test/pets`).
        public let subject: String
        /// Where the stub was declared (a declaration's `StubDeclaration.source`);
        /// `nil` for a HAR entry and a declaration without a source.
        public let location: StubLocation?
        /// What it broke.
        public let violation: ContractViolation
        /// For a declaration, where in its JSON form the part to fix is (`$.response.body`,
        /// `$.request.query.limit`); `nil` otherwise.
        public internal(set) var declarationPath: String? = nil

        /// `subject: violation`, or `subject at declarationPath: violation`.
        public var description: String { "\(subject)\(declarationPath.map { " at \($0)" } ?? ""): \(violation)" }
    }

    /// The document checked against.
    public let source: String
    /// Every violation found.
    public let findings: [Finding]
    /// What was not checked, and why (a stub whose response is a closure, a matcher that names
    /// no method or path).
    public let notChecked: [String]
    /// How many responses were checked.
    public let checkedCount: Int
    /// For a check of declarations, what each one stands for, in the order given; empty for
    /// other checks.
    public internal(set) var declarations: [DeclarationResult] = []

    /// `true` when nothing broke the document.
    public var isSuccess: Bool { findings.isEmpty }

    /// The findings, then what was not checked.
    public var description: String {
        var lines = [
            isSuccess
                ? "Contract check against \(source) passed (\(checkedCount) responses)."
                : "Contract check against \(source) failed (\(findings.count) violation\(findings.count == 1 ? "" : "s") in \(checkedCount) responses):"
        ]
        lines += findings.map { "- \($0)" }
        if !notChecked.isEmpty {
            lines.append("Not checked (\(notChecked.count)):")
            lines += notChecked.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
