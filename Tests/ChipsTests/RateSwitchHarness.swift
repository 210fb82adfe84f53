import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// An emulator's bus that logs every register write, so a test sees exactly what a driver
/// wrote (no reset command among them) while the emulator behaves as it would.
final class WriteLoggingBus<Chip: I2CBus & EmulatedChip>: I2CBus {
    let chip: Chip
    private(set) var writes: [(register: UInt8, value: UInt8)] = []

    init(_ chip: Chip) { self.chip = chip }

    var name: String { chip.name }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try chip.readRegisters(address: address, register: register, into: buffer)
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        for (offset, value) in values.enumerated() { writes.append((register &+ UInt8(offset), value)) }
        try chip.writeRegisters(address: address, register: register, values: values)
    }

    func clearWrites() { writes.removeAll() }
}

/// A motion source that numbers the emulator's samples: it logs the time of each call (one per
/// sample the chip takes) and puts the sample's index modulo 32 into acceleration x, in steps of
/// 0.5 m/s² (within ±4 g and ±8 g, hundreds of counts apart), so every frame drained says which
/// sample it is.
final class NumberedMotion {
    private(set) var sampleTimes: [Int64] = []

    func sample(_ time: Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double)) {
        defer { sampleTimes.append(time) }
        return ((Double(sampleTimes.count % 32) * 0.5, 0, 9.80665), (0, 0, 0))
    }

    /// The sample index modulo 32 that a frame's acceleration carries.
    static func index(of reading: SensorReading) -> Int? {
        guard case .acceleration(let vector) = reading.value else { return nil }
        return Int((vector.x.doubleValue / 0.5).rounded())
    }
}

/// Drives a FIFO driver over its emulator: drains on a schedule, switches rates in place, and
/// keeps every frame drained (its sample number and the driver's stamp).
struct RateSwitchRun<Driver: FIFOInertialDriver, Chip: EmulatedChip> {
    let driver: Driver
    let chip: Chip
    let motion: NumberedMotion
    /// Per drained frame: the sample number (mod 32) and the driver's timestamp, ns.
    private(set) var frames: [(index: Int, stamp: Int64)] = []
    /// Per drain: the stamps of its frames.
    private(set) var drains: [[Int64]] = []
    private(set) var overflowedDrains = 0

    init(driver: Driver, chip: Chip, motion: NumberedMotion) {
        self.driver = driver
        self.chip = chip
        self.motion = motion
    }

    /// Runs the chip to `time` and drains everything it holds.
    mutating func drain(at time: Int64) throws {
        chip.advance(to: time)
        var buffer = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(.zero)), count: 64)
        while true {
            let result = try buffer.withUnsafeMutableBufferPointer { try driver.drain(into: $0, nowNanoseconds: time) }
            if result.overflowed { overflowedDrains += 1 }
            var stamps: [Int64] = []
            for reading in buffer[0..<result.readings] {
                guard let index = NumberedMotion.index(of: reading) else { continue }
                frames.append((index, reading.timestampNanoseconds))
                stamps.append(reading.timestampNanoseconds)
            }
            if !stamps.isEmpty { drains.append(stamps) }
            if result.readings < buffer.count { break }
        }
    }

    /// Drains every `poll` from `start` to `end` (both included).
    mutating func drain(every poll: Int64, from start: Int64, through end: Int64) throws {
        for time in stride(from: start, through: end, by: Int(poll)) { try drain(at: time) }
    }

    /// Whether the frames drained are the samples taken, each once, in order: consecutive
    /// numbers (mod 32) and as many as the motion source was asked for.
    var everySampleOnce: Bool {
        guard frames.count == motion.sampleTimes.count else { return false }
        return zip(frames.dropFirst(), frames).allSatisfy { ($0.index - $1.index + 32) % 32 == 1 }
    }

    /// Intervals between the chip's samples (from the motion source's log), ns.
    var sampleIntervals: [Int64] { zip(motion.sampleTimes.dropFirst(), motion.sampleTimes).map { $0 - $1 } }
}

/// What one rate switch must write, register by register (no reset command among them).
typealias RegisterWrites = [(register: UInt8, value: UInt8)]

/// Runs `run`'s chip at its board rate for 200 ms, switches it to `fastHertz` 5 ms after a
/// drain (the FIFO drained first, as the engine does), runs 200 ms, switches back to
/// `boardHertz` and runs 200 ms more, draining every 10 ms; then checks what a switch in place
/// promises: exactly `upWrites` and `downWrites` on the bus, the new period from the driver,
/// every sample the chip took drained once and in order, the sample period exact before,
/// between and after the switches, the one interval spanning each switch at most the sum of
/// the two periods, and each drain's frames stamped at the period of its rate.
func checkSwitchUpAndBack<Driver: FIFOInertialDriver, Chip: EmulatedChip>(
    _ run: inout RateSwitchRun<Driver, Chip>, bus: WriteLoggingBus<some I2CBus & EmulatedChip>, boardHertz: Int, fastHertz: Int,
    upWrites: RegisterWrites, downWrites: RegisterWrites) throws {
    let ms: Int64 = 1_000_000
    let slow = 1_000_000_000_000 / Int64(boardHertz * 1000), fast = 1_000_000_000_000 / Int64(fastHertz * 1000)
    #expect(run.driver.samplePeriodNanoseconds == slow)
    try run.drain(every: 10 * ms, from: 10 * ms, through: 200 * ms)
    try run.drain(at: 205 * ms)
    bus.clearWrites()
    #expect(try run.driver.setSampleRate(hertz: fastHertz, dataReadyInterrupt: false) == fast)
    #expect(bus.writes.map(\.register) == upWrites.map(\.register) && bus.writes.map(\.value) == upWrites.map(\.value),
            "\(bus.writes)")
    let up = run.motion.sampleTimes.count, drainsUp = run.drains.count
    try run.drain(every: 10 * ms, from: 215 * ms, through: 405 * ms)
    bus.clearWrites()
    #expect(try run.driver.setSampleRate(hertz: boardHertz, dataReadyInterrupt: true) == slow)
    #expect(bus.writes.map(\.register) == downWrites.map(\.register) && bus.writes.map(\.value) == downWrites.map(\.value),
            "\(bus.writes)")
    let down = run.motion.sampleTimes.count, drainsDown = run.drains.count
    try run.drain(every: 10 * ms, from: 415 * ms, through: 605 * ms)

    #expect(run.everySampleOnce, "\(run.frames.count) frames for \(run.motion.sampleTimes.count) samples")
    #expect(run.overflowedDrains == 0 && run.driver.overflows == 0 && run.driver.recoveries == 0)
    let intervals = run.sampleIntervals  // intervals[i]: from sample i to sample i + 1
    #expect(up > 10 && down > up + 100 && intervals.count > down + 10)
    guard up > 10, down > up + 100, intervals.count > down + 10 else { return }
    #expect(intervals[..<(up - 1)].allSatisfy { $0 == slow })
    #expect(intervals[up..<(down - 1)].allSatisfy { $0 == fast })
    #expect(intervals[down...].allSatisfy { $0 == slow })
    for spanning in [intervals[up - 1], intervals[down - 1]] { #expect(spanning > 0 && spanning <= slow + fast, "\(spanning) ns") }
    // The driver's stamps: each drain's frames one period of its rate apart.
    for (number, stamps) in run.drains.enumerated() {
        let period = number >= drainsUp && number < drainsDown ? fast : slow
        #expect(zip(stamps.dropFirst(), stamps).allSatisfy { $0 - $1 == period }, "drain \(number): \(stamps)")
    }
}

/// Leaves `run`'s chip (at 100 Hz) undrained for 1.4 s, 140 frames for its 85-frame FIFO, then
/// switches it to `fastHertz`: the overflow is counted by the switch (the flush would hide it),
/// and the 100 ms after it bring every sample at the new rate, once, none from before it.
func checkOverflowBeforeTheSwitch<Driver: FIFOInertialDriver, Chip: EmulatedChip>(_ run: inout RateSwitchRun<Driver, Chip>,
                                                                                 fastHertz: Int) throws {
    try run.drain(at: 100_000_000)
    run.chip.advance(to: 1_500_000_000)
    #expect(try run.driver.setSampleRate(hertz: fastHertz, dataReadyInterrupt: false) == 1_000_000_000_000 / Int64(fastHertz * 1000))
    #expect(run.driver.overflows == 1)
    let before = run.frames.count, taken = run.motion.sampleTimes.count
    try run.drain(every: 10_000_000, from: 1_510_000_000, through: 1_600_000_000)
    let after = run.frames[before...]
    #expect(after.count == run.motion.sampleTimes.count - taken && after.count == fastHertz / 10)
    #expect(zip(after.dropFirst(), after).allSatisfy { ($0.index - $1.index + 32) % 32 == 1 })
    #expect(run.overflowedDrains == 0 && run.driver.overflows == 1)
}
