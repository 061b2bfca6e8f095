import Foundation
import URLStubs

/// What the app's end of the link refuses, as `StubError.library(_:)`: a request to a stream
/// the test writes that already serves one or has ended (the request fails with it), a write
/// the test sends that cannot be delivered, and a scenario name the app does not have (the
/// test's call fails with its description).
///
/// The link names neither the streaming nor the scenarios library, so these are its own; each
/// keeps the number of the same failure in those libraries.
enum LinkFailure: LibraryFailure {
    case streamBusy(stream: String, stub: String)
    case streamEnded(stream: String, stub: String)
    case writeAfterEnd(stream: String, ended: String)
    case notConnected(stream: String, reason: String)
    case unknownScenario(String, known: [String])

    var code: Int {
        switch self {
        case .streamBusy: return 16
        case .streamEnded: return 17
        case .writeAfterEnd: return 26
        case .notConnected: return 31
        case .unknownScenario: return 35
        }
    }

    var description: String {
        switch self {
        case .streamBusy(let stream, let stub):
            return "URLStubs: \(StubError.theStub(stub)) answered with the test's \(stream), which another request of the app "
                + "is reading; the test's stream serves one request at a time. Declare one stream per connection."
        case .streamEnded(let stream, let stub):
            return "URLStubs: \(StubError.theStub(stub)) answered with the test's \(stream), whose end an earlier request "
                + "already received. Declare one stream per connection."
        case .writeAfterEnd(let stream, let ended):
            return "URLStubs: the app cannot deliver a write to the \(stream): it was ended \(ended). "
                + "Write everything before finishing the stream."
        case .notConnected(let stream, let reason):
            return "URLStubs: no request of the app reads the \(stream) now (\(reason)); what it had not received was "
                + "dropped. Wait for the app's next request to the stream before writing again."
        case .unknownScenario(let name, let known):
            return "URLStubs: unknown scenario \"\(name)\". Known scenarios: "
                + (known.isEmpty ? "none" : known.map { "\"\($0)\"" }.joined(separator: ", ")) + "."
        }
    }
}
