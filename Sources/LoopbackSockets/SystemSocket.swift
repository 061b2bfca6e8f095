// The platform's socket calls that the stub server, the UI-test link and the benchmark share,
// spelled once for each C library (Glibc, Musl, Darwin differ in the type of SOCK_STREAM and
// SHUT_*, and in which module `close` lives).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Socket calls on raw descriptors, on the loopback interface only.
///
/// Not a product: `URLStubsServer`, `URLStubsTestRunnerLink` and `urlstubs-bench` link it so
/// that each platform difference is handled in one place.
public enum SystemSocket {
    /// A new TCP socket of the IPv4 or IPv6 family.
    /// - Returns: Its descriptor, or -1 with `errno` set.
    public static func makeTCP(ipv6: Bool = false) -> Int32 {
        #if canImport(Darwin)
        socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        #else
        socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
    }

    /// The address 127.0.0.1:`port` (port 0: the system picks one when it is bound).
    public static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// The directions `shutdown(_:_:)` ends.
    public enum Directions: Sendable {
        /// The sending side only: the peer reads the end of the stream after the bytes sent.
        case writes
        /// Both: the peer reads the end, and a reader on this side wakes with it.
        case both
    }

    /// Ends `directions` of a connection without closing its descriptor.
    public static func shutdown(_ descriptor: Int32, _ directions: Directions) {
        #if canImport(Darwin)
        _ = Darwin.shutdown(descriptor, directions == .writes ? SHUT_WR : SHUT_RDWR)
        #elseif canImport(Glibc)
        _ = Glibc.shutdown(descriptor, Int32(directions == .writes ? SHUT_WR : SHUT_RDWR))
        #elseif canImport(Musl)
        _ = Musl.shutdown(descriptor, Int32(directions == .writes ? SHUT_WR : SHUT_RDWR))
        #endif
    }

    /// Closes `descriptor`.
    public static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Musl)
        _ = Musl.close(descriptor)
        #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
        #endif
    }
}
