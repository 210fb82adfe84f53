/// White measurement noise for emulated chips: deterministic (a seeded xorshift64* generator, so
/// a test or a demo run is repeatable) and free of transcendental functions (the sum of twelve
/// uniform variates minus six, the Irwin–Hall approximation of a unit normal variate: mean 0,
/// variance 1, tails cut at ±6σ, which a sensor's noise never reaches anyway).
public struct EmulatedNoise: Sendable {
    /// RMS noise per axis, in the quantity's SI unit.
    public var rms: Double
    private var state: UInt64

    public init(rms: Double, seed: UInt64) {
        self.rms = rms
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed  // xorshift's state must not be 0
    }

    /// The next noise value, in the quantity's unit.
    public mutating func next() -> Double {
        guard rms > 0 else { return 0 }
        var sum = 0.0
        for _ in 0..<12 { sum += uniform() }
        return (sum - 6) * rms
    }

    /// A vector with independent noise on each axis added.
    public mutating func add(to vector: (Double, Double, Double)) -> (Double, Double, Double) {
        guard rms > 0 else { return vector }
        return (vector.0 + next(), vector.1 + next(), vector.2 + next())
    }

    /// Uniform in [0, 1) from the top 53 bits of xorshift64* (Vigna, "An experimental
    /// exploration of Marsaglia's xorshift generators", 2016).
    private mutating func uniform() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) * 0x1p-53
    }
}
