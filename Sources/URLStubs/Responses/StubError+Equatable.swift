import Foundation

extension StubError: Equatable {
    /// Two errors are equal when they are the same case with equal values; two library
    /// failures when they are of one type and equal.
    public static func == (left: StubError, right: StubError) -> Bool {
        switch (left, right) {
        case (.invalidStatusCode(let a, let b), .invalidStatusCode(let c, let d)): return a == c && b == d
        case (.invalidHeader(let a, let b, let c), .invalidHeader(let d, let e, let f)): return a == d && b == e && c == f
        case (.invalidMatcher(let a, let b), .invalidMatcher(let c, let d)): return a == c && b == d
        case (.bodyStreamFailed(let a, let b, let c), .bodyStreamFailed(let d, let e, let f)): return a == d && b == e && c == f
        case (.registryReleased(let a), .registryReleased(let b)): return a == b
        case (.downloadTasksUnsupported(let a), .downloadTasksUnsupported(let b)): return a == b
        case (.unmatchedRequest(let a), .unmatchedRequest(let b)): return a == b
        case (.invalidRedirect(let a, let b), .invalidRedirect(let c, let d)): return a == c && b == d
        case (.requestBodyUnavailable(let a, let b), .requestBodyUnavailable(let c, let d)): return a == c && b == d
        case (.backgroundSessionUnsupported(let a), .backgroundSessionUnsupported(let b)): return a == b
        case (.bodyLengthMismatch(let a, let b, let c), .bodyLengthMismatch(let d, let e, let f)): return a == d && b == e && c == f
        case (.invalidContentLength(let a, let b), .invalidContentLength(let c, let d)): return a == c && b == d
        case (.invalidResponse(let a), .invalidResponse(let b)): return a == b
        case (.invalidDownloadSpeed(let a, let b), .invalidDownloadSpeed(let c, let d)): return a == c && b == d
        case (.bodyNotAllowed(let a, let b, let c), .bodyNotAllowed(let d, let e, let f)): return a == d && b == e && c == f
        case (.invalidDeclaration(let a, let b, let c), .invalidDeclaration(let d, let e, let f)): return a == d && b == e && c == f
        case (.library(let a), .library(let b)): return a.isEqual(to: b)
        case (.notJSON(let a), .notJSON(let b)): return a == b
        case (.bodyIsNotJSON(let a, let b, let c), .bodyIsNotJSON(let d, let e, let f)): return a == d && b == e && c == f
        case (.patchIsNotJSON(let a), .patchIsNotJSON(let b)): return a == b
        default: return false
        }
    }
}
