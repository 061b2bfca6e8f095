import Foundation
import URLStubsTestRunnerLink

/// A loopback port nothing listens on (one the system gave out, then closed): a request to it
/// fails at once with `URLError.cannotConnectToHost`, as with a server that is down.
func closedLoopbackPort() throws -> UInt16 {
    let (socket, port) = try LoopbackSocket.listen()
    socket.close()
    return port
}
