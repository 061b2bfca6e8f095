import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import URLStubs
@testable import TestSupport

/// An invalid regular expression says where it goes wrong (`NSRegularExpression` does not).
@Suite("Invalid regular expressions name a column")
struct RegexDiagnosisTests {
    @Test(arguments: [
        ("^/users/([0-9]+$", #""(" at column 9 is never closed"#),
        ("^/users/[0-9+$", #""[" at column 9 is never closed"#),
        ("^/users/[0-9]+)$", #"unbalanced ")" at column 15"#),
        ("*.json", #""*" at column 1 has nothing to repeat"#),
        ("v1|+beta", #""+" at column 4 has nothing to repeat"#),
        ("a{2", #""{" at column 2 is never closed"#),
        (#"/files\"#, #"trailing "\" at column 7 escapes nothing"#),
        ("[z-a]", #"the pattern is invalid from column 3 ("-a")"#),
        ("(?<=a+)b", #"the pattern is invalid from column 6 ("+")"#),
        ("(?i)ab(", #""(" at column 7 is never closed"#),
    ])
    func messageGivesThePosition(pattern: String, explanation: String) {
        let problems = pathMatches(pattern).problems
        #expect(problems == ["invalid regular expression /\(pattern)/ for the path: \(explanation)"])
    }

    @Test func requestThroughAStubWithABrokenRegexSaysWhere() async {
        let registry = StubRegistry()
        registry.stub(bodyMatches(#""id":\s*([0-9]+"#), name: "broken") { _ in StubResponse(statusCode: 200) }
        let result = await fetch(request("https://api.test/x", method: "POST", body: Data(#"{"id": 1}"#.utf8)), from: registry)
        guard case .invalidMatcher(let stub, let problems)? = result.stubError else {
            Issue.record("expected invalidMatcher, got \(String(describing: result.error))")
            return
        }
        #expect(stub.contains("\"broken\""))
        #expect(problems == [#"invalid regular expression /"id":\s*([0-9]+/ for the body: "(" at column 9 is never closed"#])
    }

    @Test func validPatternsAreUntouched() {
        for pattern in ["^/users/[0-9]+$", "(?i)^/API/", #"\p{L}+"#, "[[:alpha:]]+", "a{2,3}?", #"\Q(literal\E"#] {
            #expect(pathMatches(pattern).problems.isEmpty, "\(pattern)")
        }
    }
}
