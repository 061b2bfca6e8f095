/// One descriptor the server holds in reserve for the moment the process has none left.
///
/// Then `accept` fails, and a connection waiting in the listen queue would wait there
/// unanswered until a descriptor comes free, however long that takes: its client sees nothing,
/// not even a refusal. With a spare, the server gives it up, accepts one connection into its
/// number, answers it 503 and closes it, and takes the spare back. Used on the accept queue
/// only.
final class SpareDescriptor: @unchecked Sendable {
    // @unchecked: used on the server's accept queue only (see above).
    private var descriptor = ServerSocket.openSpare()

    /// Frees the spare for `work` (which must close any descriptor it takes) and takes it back
    /// afterwards; returns what `work` returns, or `false`, doing nothing, when no spare is held
    /// and none can be taken now.
    func giveUp(for work: () -> Bool) -> Bool {
        if descriptor == -1 { descriptor = ServerSocket.openSpare() }
        guard descriptor >= 0 else { return false }
        ServerSocket.close(descriptor)
        descriptor = -1
        let result = work()
        descriptor = ServerSocket.openSpare()
        return result
    }

    /// Closes the spare for good (the server stopped).
    func close() {
        if descriptor >= 0 { ServerSocket.close(descriptor) }
        descriptor = -2
    }

    deinit {
        if descriptor >= 0 { ServerSocket.close(descriptor) }
    }
}
