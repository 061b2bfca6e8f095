import Foundation

/// A simulated network speed for a stubbed body, in kilobytes (1,000 bytes) per second.
///
/// The named speeds are the ones OHHTTPStubs users know:
/// `.gprs` 7, `.edge` 16, `.threeG` 400, `.threeGPlus` 900 and `.wifi` 1,500 KB/s.
///
/// ```swift
/// try StubResponse(fixture: imageURL).downloadSpeed(.threeG)
/// StubResponse(data: body).downloadSpeed(.kilobytesPerSecond(64))
/// ```
public struct DownloadSpeed: Sendable, Hashable, CustomStringConvertible {
    /// Kilobytes (1,000 bytes) per second, as given.
    public let kilobytesPerSecond: Double

    /// Bytes per second.

    /// A custom speed. It must be a positive, finite number: a stub paced by any other (`0`,
    /// `-400`, `.nan`) fails each request it answers at once with
    /// ``StubError/invalidDownloadSpeed(kilobytesPerSecond:stub:)``, which says what to type,
    /// rather than trickle a byte now and then. A response that never comes is
    /// ``StubResponse/neverResponding()``.
    public static func kilobytesPerSecond(_ value: Double) -> DownloadSpeed {
        DownloadSpeed(kilobytesPerSecond: value)
    }

    /// 56 kbit/s, 7 KB/s.
    public static let gprs = DownloadSpeed(kilobytesPerSecond: 7)
    /// 128 kbit/s, 16 KB/s.
    public static let edge = DownloadSpeed(kilobytesPerSecond: 16)
    /// 3.2 Mbit/s, 400 KB/s.
    public static let threeG = DownloadSpeed(kilobytesPerSecond: 400)
    /// 7.2 Mbit/s, 900 KB/s.
    public static let threeGPlus = DownloadSpeed(kilobytesPerSecond: 900)
    /// 12 Mbit/s, 1,500 KB/s.
    public static let wifi = DownloadSpeed(kilobytesPerSecond: 1500)

    /// The speed's name and rate, for reports.
    public var description: String {
        switch self {
        case .gprs: return "GPRS (7 KB/s)"
        case .edge: return "EDGE (16 KB/s)"
        case .threeG: return "3G (400 KB/s)"
        case .threeGPlus: return "3G+ (900 KB/s)"
        case .wifi: return "Wi-Fi (1500 KB/s)"
        default: return "\(kilobytesPerSecond) KB/s"
        }
    }
}
