/// A small, fast random generator whose whole state is one number, so a run is reproducible
/// from its seed alone (SplitMix64). The wings' seeded randomness (network profiles, response
/// templates, delay distributions) shares it.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that yields the same numbers for the same `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next number.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<1.
    package mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
