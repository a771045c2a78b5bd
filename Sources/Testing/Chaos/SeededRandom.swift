/// SplitMix64: a small, fast generator whose whole sequence follows from its seed — the
/// source of every choice `sandglass stress` makes, so that `--seed N` reproduces them.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one coordinate of a run (`seed`, epoch, iteration …): the same
    /// coordinates give the same sequence, whatever came before.
    public init(seed: UInt64, _ coordinates: UInt64...) {
        var mixed = SeededRandom(seed: seed)
        var value = mixed.next()
        for c in coordinates {
            var step = SeededRandom(seed: value ^ (c &* 0x9E37_79B9_7F4A_7C15))
            value = step.next()
        }
        state = value
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }
}
