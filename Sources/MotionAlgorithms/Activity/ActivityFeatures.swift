public import FixedPoint

/// The motion features the activity classifier decides on, over the last 2 s (four 0.5 s
/// blocks), all Q32.32 in SI units. Per sample: |a|, four first-order low-pass filters and a
/// few sums, no allocation; per block (every 0.5 s of the readings' clock) the block's sums go
/// into a ring of four.
///
/// Bands of |a| (first-order filters, cut-offs where the physics separates):
/// - **ride band, 0.3–5 Hz**: gait (steps at 1.4–3 Hz, heel strikes), a car body's bounce on
///   its suspension (1–2 Hz), pedalling. Its standard deviation is the "motion energy".
/// - **vibration band, 5–20 Hz** (second-order lower edge): road and engine vibration reaching a seat (whole-body
///   vibration in cars is mostly 1–20 Hz: ISO 2631-1; Paddan & Griffin, "Evaluation of
///   whole-body vibration in vehicles", J. Sound Vib. 253(1), 2002). White sensor noise puts
///   only 15/fs of its power here (~0.03 m/s² rms for a 0.07 m/s² noise at 286 Hz), and a
///   person sitting or standing almost nothing.
/// The per-axis spread (sum of the three axes' variances) also sees a device turned slowly,
/// which leaves |a| unchanged: the stationary test needs it.
public struct ActivityFeatures: Sendable {
    /// Sums of one 0.5 s block.
    struct Block: Sendable, BitwiseCopyable {
        var samples: Int64 = 0
        var sum = FusionVector<Q32_32>.zero           // Σ (a − reference), m/s²
        var sumOfSquares = FusionVector<Q32_32>.zero  // Σ (a − reference)², (m/s²)²
        var sumOfMagnitudes = Q32_32.zero             // Σ |a|, m/s²
        var rideEnergy = Q32_32.zero                  // Σ ride², (m/s²)²
        var vibrationEnergy = Q32_32.zero             // Σ vibration², (m/s²)²
        var rotationSamples: Int64 = 0
        var rotationEnergy = Q32_32.zero              // Σ |ω|², (rad/s)²
    }

    static let blockNanoseconds: Int64 = 500_000_000
    static let blocksPerWindow = 4

    private var blocks = InlineArray<4, Block>(repeating: Block())
    private var current = Block()
    private var newest = 0
    /// Completed blocks so far (saturates at 2³¹).
    public private(set) var completedBlocks = 0
    private var blockStart: Int64 = 0
    private var previousTime: Int64 = 0
    private var started = false
    /// Per-axis sums are taken around a recent sample (keeps Σx² small and exact).
    private var reference = FusionVector<Q32_32>.zero

    // First-order low-passes of |a| (m/s²): y ← y + (x − y) · min(1, 2π f_c dt).
    private var fast = Q32_32.zero     // 20 Hz
    private var middle = Q32_32.zero   // 5 Hz
    private var slow = Q32_32.zero     // 0.3 Hz
    private var highPassed = Q32_32.zero  // 5 Hz low-pass of (fast − middle), for a second-order edge
    // 2π f_c (1/s), rounded: round(40π × 2³²), round(10π × 2³²), round(0.6π × 2³²).
    static let twoPi20 = Q32_32(rawValue: 539_721_508_181)
    static let twoPi5 = Q32_32(rawValue: 134_930_377_045)
    static let twoPi03 = Q32_32(rawValue: 8_095_822_623)

    // Not inlined: inlined into `ActivityClassifier.init` it made the classifier's
    // construction hold a second copy of the blocks on the stack (+560 bytes of peak stack on a
    // Cortex-M0, whose whole pipeline has 8 KB of RAM; tools/test-firmware-qemu.sh).
    @inline(never) public init() {}

    /// One accelerometer sample (m/s², device axes) with the latest rotation rate (rad/s) when
    /// the board has a gyroscope. Returns true when it completed a 0.5 s block.
    public mutating func update(acceleration a: FusionVector<Q32_32>, rotationRate: FusionVector<Q32_32>?, timeNanoseconds time: Int64) -> Bool {
        let magnitude = a.squaredLength.squareRoot
        if !started {
            started = true
            blockStart = time
            previousTime = time
            fast = magnitude
            middle = magnitude
            slow = magnitude
            reference = a
        }
        let dt = Q32_32(nanoseconds: time - previousTime)
        previousTime = time
        fast = fast + (magnitude - fast) * min(Q32_32.one, Self.twoPi20 * dt)
        middle = middle + (fast - middle) * min(Q32_32.one, Self.twoPi5 * dt)
        slow = slow + (middle - slow) * min(Q32_32.one, Self.twoPi03 * dt)
        // Twice high-passed at 5 Hz (second order, −40 dB/decade): a step's 2 Hz fundamental,
        // ±2.5 m/s² at the waist, would leak 0.6 m/s² rms through one first-order edge.
        let firstEdge = fast - middle
        highPassed = highPassed + (firstEdge - highPassed) * min(Q32_32.one, Self.twoPi5 * dt)
        let vibration = firstEdge - highPassed
        let ride = middle - slow

        let d = a - reference
        // Wrapping adds: a block holds 0.5 s of samples, a window four blocks (Int64 never near).
        current.samples &+= 1
        current.sum = current.sum + d
        current.sumOfSquares = current.sumOfSquares + FusionVector(x: d.x * d.x, y: d.y * d.y, z: d.z * d.z)
        current.sumOfMagnitudes = current.sumOfMagnitudes + magnitude
        current.rideEnergy = current.rideEnergy + ride * ride
        current.vibrationEnergy = current.vibrationEnergy + vibration * vibration
        if let w = rotationRate {
            current.rotationSamples &+= 1
            current.rotationEnergy = current.rotationEnergy + w.squaredLength
        }
        guard time - blockStart >= Self.blockNanoseconds else { return false }
        newest = (newest &+ 1) & 3
        blocks[newest] = current
        current = Block()
        blockStart = time
        if completedBlocks < Int(Int32.max) { completedBlocks &+= 1 }
        // Stored blocks are re-based on the newest sample, so the window's sums stay small
        // (the variance is a difference of sums) even when the device turns over.
        rereference(to: a)
        return true
    }

    /// Moves every stored block's per-axis sums to a new reference r′ = r + δ:
    /// Σ(x − r′) = Σ(x − r) − nδ and Σ(x − r′)² = Σ(x − r)² − 2δΣ(x − r) + nδ².
    private mutating func rereference(to newReference: FusionVector<Q32_32>) {
        let delta = newReference - reference
        reference = newReference
        for index in 0..<4 {
            var block = blocks[index]
            let n = Q32_32(rawValue: block.samples << 32)
            let shiftedSum = block.sum - delta * n
            block.sumOfSquares = FusionVector(
                x: block.sumOfSquares.x - (delta.x * block.sum.x).timesPowerOfTwo(1) + delta.x * delta.x * n,
                y: block.sumOfSquares.y - (delta.y * block.sum.y).timesPowerOfTwo(1) + delta.y * delta.y * n,
                z: block.sumOfSquares.z - (delta.z * block.sum.z).timesPowerOfTwo(1) + delta.z * delta.z * n)
            block.sum = shiftedSum
            blocks[index] = block
        }
    }

    /// Whether four blocks (2 s) have been seen: the features below are meaningful.
    public var isWindowFull: Bool { completedBlocks >= Self.blocksPerWindow }

    private mutating func windowSums(blocks count: Int) -> Block {
        var total = Block()
        for age in 0..<count {
            let block = blocks[(newest + 4 - age) & 3]
            total.samples &+= block.samples
            total.sum = total.sum + block.sum
            total.sumOfSquares = total.sumOfSquares + block.sumOfSquares
            total.sumOfMagnitudes = total.sumOfMagnitudes + block.sumOfMagnitudes
            total.rideEnergy = total.rideEnergy + block.rideEnergy
            total.vibrationEnergy = total.vibrationEnergy + block.vibrationEnergy
            total.rotationSamples &+= block.rotationSamples
            total.rotationEnergy = total.rotationEnergy + block.rotationEnergy
        }
        return total
    }

    /// Statistics of the newest `count` blocks (4: the 2 s window; 2: the last second), after a
    /// completed block. Changes nothing: `mutating` only so that the blocks are read in place
    /// (a non-mutating call on this 700-byte struct copies it onto the stack first).
    public mutating func window(blocks count: Int = 4) -> ActivityWindow {
        let total = windowSums(blocks: min(max(count, 1), 4))
        let n = max(total.samples, 1)
        func mean(_ sum: Q32_32) -> Q32_32 { Q32_32(rawValue: sum.rawValue / n) }
        let m = FusionVector(x: mean(total.sum.x), y: mean(total.sum.y), z: mean(total.sum.z))
        let meanSquares = FusionVector(x: mean(total.sumOfSquares.x), y: mean(total.sumOfSquares.y), z: mean(total.sumOfSquares.z))
        let variance = max(Q32_32.zero, meanSquares.x - m.x * m.x) + max(Q32_32.zero, meanSquares.y - m.y * m.y)
            + max(Q32_32.zero, meanSquares.z - m.z * m.z)
        let rotation: Q32_32? = total.rotationSamples > 0
            ? Q32_32(rawValue: total.rotationEnergy.rawValue / total.rotationSamples).squareRoot : nil
        // |mean a| / mean |a|: 1 while gravity keeps its direction in the device, less as the
        // device turns (the mean of a turning vector is shorter than the vector).
        let meanMagnitude = mean(total.sumOfMagnitudes)
        let meanVector = (reference + m).squaredLength.squareRoot
        let steadiness = meanVector * (meanMagnitude * meanMagnitude).reciprocalSquareRoot
        return ActivityWindow(axisSpread: variance.squareRoot,
                              gravitySteadiness: min(steadiness, Q32_32.one),
                              meanAcceleration: meanVector,
                              rideDeviation: mean(total.rideEnergy).squareRoot,
                              vibration: mean(total.vibrationEnergy).squareRoot,
                              rotation: rotation)
    }
}

/// Statistics of the last 2 s of motion.
public struct ActivityWindow: Sendable, BitwiseCopyable {
    /// √(σx² + σy² + σz²) of the acceleration, m/s²: any movement of the device, turning included.
    public var axisSpread: Q32_32
    /// |mean of a| / mean of |a|, 0…1: how steadily the device keeps its orientation (1: gravity
    /// fixed in device axes; cos 45° ≈ 0.71 for a device swinging through ±45°; near 0 when
    /// turned over and over). A carried device stays above ~0.8 (a back pocket, the worst
    /// carry in the Oxford walks); a device waved or turned in the hand drops well below.
    public var gravitySteadiness: Q32_32
    /// |mean of a|, m/s²: gravity's share that kept its direction over the window (≈ g on a
    /// device that holds its orientation, however hard it vibrates: vibration inflates the mean
    /// of |a|, and so lowers `gravitySteadiness`, but averages out of the mean vector).
    public var meanAcceleration: Q32_32
    /// RMS of |a| in the 0.3–5 Hz band, m/s²: gait impacts, a car's bounce, pedalling.
    public var rideDeviation: Q32_32
    /// RMS of |a| in the 5–20 Hz band, m/s²: road and engine vibration.
    public var vibration: Q32_32
    /// RMS of |ω|, rad/s; nil without a gyroscope.
    public var rotation: Q32_32?
}
