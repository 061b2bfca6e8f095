import Foundation

extension ResponseDefinition.NetworkFault {
    /// The `userInfo` key under which a fault's `URLError` names the fault.
    static let userInfoKey = "URLStubsNetworkFault"

    /// The `URLError` a client in process sees for the fault, naming the fault in its
    /// `userInfo`, so that a transport with a socket (the loopback server) plays the fault
    /// itself: a reset, a close with nothing, a malformed chunk, bytes that are not HTTP.
    package var urlError: URLError {
        let code: URLError.Code
        switch self {
        case .connectionReset, .emptyResponse, .malformedResponseChunk: code = .networkConnectionLost
        case .randomDataThenClose: code = .badServerResponse
        }
        return URLError(code, userInfo: [Self.userInfoKey: rawValue])
    }

    /// The fault whose ``urlError`` `error` is; `nil` for any other error.
    package init?(carriedBy error: any Error) {
        guard let error = error as? URLError, let name = error.userInfo[Self.userInfoKey] as? String, let fault = Self(rawValue: name) else {
            return nil
        }
        self = fault
    }
}
