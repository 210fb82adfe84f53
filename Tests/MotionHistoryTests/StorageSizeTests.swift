import Foundation
import MotionHistory
import Recordings
import TestSupport
import Testing

/// How much the history costs an SD card, measured on a real 50 Hz walk (UCI HAPT: standing,
/// then walking, a smartphone at the waist), looped and time-compressed: three days and two
/// hours of one-second commits, so retention has pruned for two hours when it is measured.
@Suite(.blocking) struct StorageSizeTests {
    /// The recording's accelerometer in g, at its own 50 Hz.
    static func walk() throws -> [(Double, Double, Double)] {
        let reader = try RecordingReader(path: ProjectPaths.recording("uci_hapt_exp01_user01_stand_walk.csv.gz"))
        var samples: [(Double, Double, Double)] = []
        while let sample = try reader.next() {
            if sample.sensor == .accelerometer { samples.append((sample.x / 9.80665, sample.y / 9.80665, sample.z / 9.80665)) }
        }
        return samples
    }

    @Test func threeDaysOf50HzAccelerometerStayUnder100MB() throws {
        let walk = try Self.walk()
        #expect(walk.count > 4000)
        let history = TemporaryHistory("size")
        defer { history.remove() }
        let store = try history.open()
        let seconds = 74 * 3600
        var k = 0
        var bytesFirstHour = 0
        for second in 0..<seconds {
            for _ in 0..<50 {
                let (x, y, z) = walk[k % walk.count]
                store.append(AccelerometerSample(timeNanoseconds: Int64(k) * 20_000_000, x: x, y: y, z: z))
                k += 1
            }
            if second % 5 == 0 { store.append(.step(timeNanoseconds: Int64(second) * 1_000_000_000, lengthMeters: 0.7)) }
            try store.commit()
            if second == 3599 { bytesFirstHour = store.bytesWritten }
        }
        try store.close()
        let size = history.size
        print("history storage: \(bytesFirstHour) bytes written in the first hour (50 Hz accelerometer, a step every 5 s); "
              + "\(size) bytes on disk after 74 h (3 days kept + the current hour), \(history.segments("accelerometer").count) accelerometer segments")
        #expect(size < 100_000_000)
        #expect(history.segments("accelerometer").count <= 74)
        // The oldest hours are gone, the last three days are there.
        let now = Int64(seconds) * 1_000_000_000
        let reopened = try history.open()
        #expect(try reopened.accelerometerSamples(from: 0, to: 3_600_000_000_000).isEmpty)
        let lastMinute = try reopened.accelerometerSamples(from: now - 60_000_000_000, to: now)
        #expect(lastMinute.count == 3000)
        #expect(Set(lastMinute.map(\.runIdentifier)).count == 1)
    }
}
