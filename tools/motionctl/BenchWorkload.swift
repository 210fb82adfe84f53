import ArgumentParser
import Chips
import FixedPoint
import Foundation
import Glibc
import MotionAlgorithms
import MotionEngine
import Recordings
import Synchronization

/// A recording held in memory, repeated (time shifted by its length each time) to `samples`
/// accelerometer samples, with the readings between them.
struct Workload {
    let name: String
    let recorded: [RecordedSample]
    let readings: [SensorReading]
    /// Accelerometer samples.
    let samples: Int

    /// Nothing to feed (callgrind's baseline), with the workload built all the same.
    var nothing: Workload { Workload(name: name, recorded: [], readings: [], samples: samples) }

    init(name: String, recorded: [RecordedSample], readings: [SensorReading], samples: Int) {
        self.name = name
        self.recorded = recorded
        self.readings = readings
        self.samples = samples
    }

    init(recording path: String, samples requested: Int?) throws {
        let playback = try RecordingPlayback(path: path)
        var source: [RecordedSample] = []
        while let (recorded, _) = try playback.stepRecorded() { source.append(recorded) }
        guard let first = source.first?.timestampNanoseconds, let last = source.last?.timestampNanoseconds,
              source.contains(where: { $0.sensor == .accelerometer })
        else { throw ValidationError("\(path) has no accelerometer samples") }
        let span = last - first + (last - first) / Int64(max(source.count, 1))
        var recorded: [RecordedSample] = []
        let wanted = requested ?? source.count { $0.sensor == .accelerometer }
        var samples = 0, pass: Int64 = 0
        fill: while samples < wanted {
            for var sample in source {
                if sample.sensor == .accelerometer {
                    if samples == wanted { break fill }
                    samples += 1
                }
                sample.timestampNanoseconds += pass * span
                recorded.append(sample)
            }
            pass += 1
        }
        name = String(path.split(separator: "/").last ?? "")
        self.recorded = recorded
        readings = recorded.map(SensorReading.init)
        self.samples = samples
    }

    /// Readings captured from a board.
    init(name: String, readings: [SensorReading]) {
        self.name = name
        self.readings = readings
        recorded = readings.map { reading in
            switch reading.value {
            case .acceleration(let v): return RecordedSample(timestampNanoseconds: reading.timestampNanoseconds, sensor: .accelerometer,
                                                              x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
            case .angularVelocity(let v): return RecordedSample(timestampNanoseconds: reading.timestampNanoseconds, sensor: .gyroscope,
                                                                 x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
            case .magneticField(let v): return RecordedSample(timestampNanoseconds: reading.timestampNanoseconds, sensor: .magnetometer,
                                                               x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
            case .pressure(let p): return RecordedSample(timestampNanoseconds: reading.timestampNanoseconds, sensor: .barometer, x: p.doubleValue)
            case .temperature(let t): return RecordedSample(timestampNanoseconds: reading.timestampNanoseconds, sensor: .thermometer, x: t.doubleValue)
            }
        }
        samples = readings.count { $0.value.channel == .accelerometer }
    }
}

/// The recording's motion values as a chip's registers would hold them: little-endian 16-bit
/// counts, 6 bytes a reading (an LSM6DSx at ±4 g and ±500 °/s, a LIS3MDL at ±4 gauss).
final class ChipCounts {
    static let accelerometerNanoUnits: Int64 = 1_196_411   // 0.122 mg/LSB in nano m/s²
    static let gyroscopeNanoUnits: Int64 = 305_433         // 17.5 m°/s/LSB in nano rad/s
    static let magnetometerNanoTesla: Int64 = 146          // 1/6842 gauss/LSB ≈ 14.6 nT: in 0.1 nT, denominator 10 000
    let bytes: UnsafeMutableRawBufferPointer

    init(_ recorded: [RecordedSample]) {
        bytes = .allocate(byteCount: max(recorded.count, 1) * 6, alignment: 8)
        for (index, sample) in recorded.enumerated() {
            let (lsb, scale): (Double, Double) = switch sample.sensor {
            case .accelerometer: (Double(Self.accelerometerNanoUnits), 1e9)
            case .gyroscope: (Double(Self.gyroscopeNanoUnits), 1e9)
            case .magnetometer: (Double(Self.magnetometerNanoTesla), 1e4)
            case .barometer, .thermometer: (1, 1)
            }
            for (axis, value) in [sample.x, sample.y, sample.z].enumerated() {
                let counts = Int16(clamping: Int((value * scale / lsb).rounded()))
                bytes.storeBytes(of: counts.littleEndian, toByteOffset: index * 6 + axis * 2, as: Int16.self)
            }
        }
    }

    deinit { bytes.deallocate() }
}
