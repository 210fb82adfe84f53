import ArgumentParser
import Chips
import FixedPoint
import Foundation
import Glibc
import MotionAlgorithms
import MotionEngine
import Recordings
import Synchronization

/// One stage as the benchmark drives it: fed every input in order, a checksum of its outputs
/// so that the optimizer keeps the work.
protocol BenchStage {
    associatedtype Input
    mutating func process(_ input: Input)
    var checksum: Int64 { get }
}

struct RecordingDecodeStage: BenchStage {
    var checksum: Int64 = 0
    mutating func process(_ input: RecordedSample) {
        let reading = SensorReading(input)
        if case .acceleration(let v) = reading.value { checksum &+= Int64(v.x.rawValue) }
        checksum &+= reading.timestampNanoseconds
    }
}

struct ChipDecodeStage: BenchStage {
    let counts: ChipCounts
    var offset = 0
    var checksum: Int64 = 0
    init(_ counts: ChipCounts) { self.counts = counts }

    mutating func process(_ input: SensorReading) {
        let raw = UnsafeRawBufferPointer(counts.bytes)
        let value: SensorValue
        switch input.value.channel {
        case .accelerometer:
            value = .acceleration(CountConversion.littleEndianVector(raw, at: offset, nanoUnitsPerLSB: ChipCounts.accelerometerNanoUnits))
        case .gyroscope:
            value = .angularVelocity(CountConversion.littleEndianVector(raw, at: offset, nanoUnitsPerLSB: ChipCounts.gyroscopeNanoUnits))
        case .magnetometer:
            value = .magneticField(CountConversion.littleEndianVector(raw, at: offset, nanoUnitsPerLSB: ChipCounts.magnetometerNanoTesla,
                                                                      denominator: 10_000))
        case .barometer, .thermometer:
            value = input.value
        }
        offset += 6
        let reading = SensorReading(timestampNanoseconds: input.timestampNanoseconds, value: value)
        if case .acceleration(let v) = reading.value { checksum &+= Int64(v.z.rawValue) }
    }
}

/// The stored corrections' per-sample arithmetic, as `DeviceMotionEstimator` applies
/// `AccelerometerCorrection` and `SoftIronCorrection` (StoredCorrections.swift; internal to
/// MotionEngine, so mirrored here): Q16.16 → Q32.32, scale ⊙ (raw − offset) on every
/// accelerometer sample, b + S (raw − b) on every magnetometer sample.
struct CalibrationStage: BenchStage {
    typealias Vector = FusionVector<Q32_32>
    let offset = Vector(x: Q32_32(0.21), y: Q32_32(-0.12), z: Q32_32(0.35))
    let scale = Vector(x: Q32_32(0.998), y: Q32_32(1.003), z: Q32_32(0.991))
    let center = Vector(x: Q32_32(40.1), y: Q32_32(-24.8), z: Q32_32(10.3))
    let rows = (Vector(x: Q32_32(1.02), y: Q32_32(0.01), z: Q32_32(0)), Vector(x: Q32_32(0.01), y: Q32_32(0.97), z: Q32_32(-0.02)),
                Vector(x: Q32_32(0), y: Q32_32(-0.02), z: Q32_32(1.01)))
    var checksum: Int64 = 0

    static func fusion(_ v: Vector3) -> Vector { Vector(x: Q32_32(v.x), y: Q32_32(v.y), z: Q32_32(v.z)) }

    mutating func process(_ input: SensorReading) {
        switch input.value {
        case .acceleration(let v):
            let d = Self.fusion(v) - offset
            let corrected = Vector(x: d.x * scale.x, y: d.y * scale.y, z: d.z * scale.z)
            checksum &+= corrected.z.rawValue
        case .magneticField(let v):
            let d = Self.fusion(v) - center
            let corrected = center + Vector(x: rows.0.dot(d), y: rows.1.dot(d), z: rows.2.dot(d))
            checksum &+= corrected.x.rawValue
        default:
            break
        }
    }
}

struct FusionStage: BenchStage {
    var estimator: DeviceMotionEstimator
    var checksum: Int64 = 0
    init(frame: AttitudeReferenceFrame, calibration: BoardCalibration? = nil) {
        estimator = DeviceMotionEstimator(frame: frame, calibration: calibration)
    }

    /// Fuses the reading and reads the attitude of a fused sample (the rest of `DeviceMotion`
    /// is built when a consumer takes one: `DeviceMotionEstimator.motion`).
    mutating func process(_ input: SensorReading) {
        if estimator.update(input) { checksum &+= Int64(estimator.attitude.w.rawValue) }
    }
}

struct StepsStage: BenchStage {
    var stage = PedometerStage()
    var checksum: Int64 = 0
    mutating func process(_ input: SensorReading) {
        var outputs: Int64 = 0
        stage.process(input) { _ in outputs += 1 }
        checksum &+= outputs
    }
}

struct ActivityBenchStage: BenchStage {
    var stage = ActivityStage()
    var checksum: Int64 = 0
    mutating func process(_ input: SensorReading) {
        var updates: Int64 = 0
        stage.process(input) { _ in updates += 1 }
        checksum &+= updates
    }
}

/// Allocates (and frees) one small array per reading: what a stage that allocates per sample
/// looks like to the counter.
struct AllocatingStage: BenchStage {
    var checksum: Int64 = 0
    mutating func process(_ input: SensorReading) {
        let scratch = [Int64](repeating: input.timestampNanoseconds, count: 4)
        checksum &+= blackHole(scratch).reduce(0, &+)
    }
}

@inline(never)
func blackHole<T>(_ value: T) -> T { value }
