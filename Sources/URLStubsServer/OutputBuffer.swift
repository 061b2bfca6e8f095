import Foundation

/// Answer bytes a connection has not written to its socket yet, in order.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    /// Where the unwritten bytes start in `bytes`.
    private var start = 0

    /// Bytes waiting to be written.
    var pending: Int { bytes.count - start }
    /// Every byte written to the socket since the connection opened.
    private(set) var written = 0
    /// Where the next byte appended will be in the connection's output, counted from its start.
    var appendedTotal: Int { written + pending }

    mutating func append(_ new: [UInt8]) {
        if start == bytes.count {
            bytes = new
            start = 0
        } else {
            bytes.append(contentsOf: new)
        }
    }

    mutating func append(_ data: Data) {
        // Through a typed buffer: one copy, not Data's element-by-element iteration.
        data.withUnsafeBytes { raw in bytes.append(contentsOf: raw.bindMemory(to: UInt8.self)) }
    }

    /// Writes what `descriptor` takes now: `nil` once every byte is written, else why it
    /// stopped (the socket is full, or the connection failed).
    mutating func write(to descriptor: Int32) -> ServerSocket.Transfer? {
        while start < bytes.count {
            let result = bytes.withUnsafeBytes { ServerSocket.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[start...])) }
            guard case .bytes(let count) = result else {
                dropWritten()
                return result
            }
            start += count
            written += count
        }
        bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
        start = 0
        return nil
    }

    mutating func removeAll() {
        bytes = []
        start = 0
    }

    /// Drops the bytes already written from the front once they are most of the buffer, so a
    /// long body passing through does not keep them all.
    private mutating func dropWritten() {
        guard start >= 256 * 1024, start * 2 >= bytes.count else { return }
        bytes.removeFirst(start)
        start = 0
    }
}
