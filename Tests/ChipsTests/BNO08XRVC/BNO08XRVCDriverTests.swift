import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// The UART-RVC driver against the emulated hub: one acceleration per frame, stamped a frame
/// period apart, and every fault of the line (lost bytes, a bad checksum, garbage, a stalled
/// line, a backlog) counted while the good frames keep coming.
@Suite struct BNO08XRVCDriverTests {
    final class Harness {
        let hub = BNO08XRVCEmulator()
        let driver: BNO08XRVCDriver<BNO08XRVCEmulator>
        let readings = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 64)
        var now: Int64 = 0

        init() { driver = BNO08XRVCDriver(stream: hub) }
        deinit { readings.deallocate() }

        /// Reads every `step` ns from where it stopped up to `end`, the hub run to each read.
        func run(until end: Int64, step: Int64 = 5_000_000) throws -> [SensorReading] {
            var all: [SensorReading] = []
            while now <= end {
                hub.advance(to: now)
                let count = try driver.read(into: readings, nowNanoseconds: now)
                all += readings[0..<count]
                now += step
            }
            return all
        }
    }

    @Test func aHubAtRestGivesOneGravityReadingPerFrame() throws {
        let harness = Harness()
        let readings = try harness.run(until: 1_000_000_000)
        #expect(readings.count == 101, "frames at 0, 10, …, 1000 ms")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $1.timestampNanoseconds - $0.timestampNanoseconds == 10_000_000 })
        guard case .acceleration(let a) = try #require(readings.last).value else { Issue.record("not an acceleration"); return }
        #expect(a.x == .zero && a.y == .zero && abs(a.z.doubleValue - 9.80665) < 1.0 / 65536)
        let attitude = try #require(harness.driver.latestAttitude)
        #expect(attitude.timestampNanoseconds == 1_000_000_000 && attitude.quaternion == Quaternion(w: .one, x: .zero, y: .zero, z: .zero))
        let scanner = harness.driver.scanner
        #expect(scanner.frames == 101 && scanner.lostFrames == 0 && scanner.checksumErrors == 0)
        #expect(scanner.discardedBytes == BNO08XRVCEmulator.announcement.count && scanner.resynchronisations == 1,
                "the start-up text (1000-3927 §5.1) skipped once: \(scanner)")
    }

    @Test func eachLineFaultIsCountedAndTheStreamGoesOn() throws {
        let harness = Harness()
        _ = try harness.run(until: 100_000_000)
        harness.hub.inject(.corruptedChecksum)
        harness.hub.inject(.droppedBytes(count: 4))
        harness.hub.inject(.garbage([0xAA, 0x00, 0xAA, 0xAA, 0x42, 0x13]))
        let readings = try harness.run(until: 300_000_000)
        let scanner = harness.driver.scanner
        #expect(readings.count == 18, "20 frames made, the corrupted and the cut one dropped: \(readings.count)")
        #expect(scanner.lostFrames == 2, "their indices are missing")
        #expect(scanner.checksumErrors >= 2, "the bad sum, the cut frame: \(scanner.checksumErrors)")
        #expect(scanner.discardedBytes >= 6 + 19, "the garbage and the bad frame's bytes: \(scanner.discardedBytes)")
        #expect(scanner.resynchronisations >= 1)
    }

    /// A stalled line: no bytes, no readings; when it comes back, the frames the hub made
    /// meanwhile are counted lost from its index.
    @Test func aStalledLineGivesNothingAndItsGapIsCounted() throws {
        let harness = Harness()
        _ = try harness.run(until: 100_000_000)
        harness.hub.stalled = true
        #expect(try harness.run(until: 600_000_000).isEmpty)
        harness.hub.stalled = false
        let after = try harness.run(until: 700_000_000)
        #expect(after.count == 10)
        #expect(harness.driver.scanner.lostFrames == 50, "\(harness.driver.scanner.lostFrames)")
    }

    /// Read late: the backlog's frames come stamped a period apart, ending at the read; a buffer
    /// too small for them takes them over several reads.
    @Test func aBacklogIsStampedBackFromTheRead() throws {
        let harness = Harness()
        harness.hub.advance(to: 90_000_000)
        let first = try harness.driver.read(into: harness.readings, nowNanoseconds: 90_000_000)
        #expect(first == 10 && harness.readings[0..<10].map(\.timestampNanoseconds) == (0..<10).map { Int64($0) * 10_000_000 })
        harness.hub.advance(to: 190_000_000)
        let part = try harness.driver.read(into: UnsafeMutableBufferPointer(rebasing: harness.readings[0..<4]), nowNanoseconds: 190_000_000)
        #expect(part == 4)
        let rest = try harness.driver.read(into: harness.readings, nowNanoseconds: 190_000_000)
        #expect(rest == 6 && harness.driver.scanner.lostFrames == 0)
    }

    /// A reader too slow for the line: the tty's 4096 bytes fill and the rest is lost, counted
    /// by the emulator as bytes and by the driver as frames.
    @Test func anOverrunLosesFramesThatTheIndexCounts() throws {
        let harness = Harness()
        // 301 frames (5719 bytes) behind the start-up text: the 4096 bytes hold the text, 211
        // whole frames and 9 bytes of frame 211.
        harness.hub.advance(to: 3_000_000_000)
        let room = BNO08XRVCEmulator.queueCapacity - BNO08XRVCEmulator.announcement.count
        #expect(room / 19 == 211 && room % 19 == 9)
        #expect(harness.hub.overrunBytes == 301 * 19 - room)
        var total = 0
        while true {
            let count = try harness.driver.read(into: harness.readings, nowNanoseconds: 3_000_000_000)
            total += count
            if count == 0 { break }
        }
        #expect(total == 211)
        harness.hub.advance(to: 3_010_000_000)
        #expect(try harness.driver.read(into: harness.readings, nowNanoseconds: 3_010_000_000) == 1, "frame 301")
        #expect(harness.driver.scanner.lostFrames == 90, "frames 211…300: \(harness.driver.scanner.lostFrames)")
        #expect(harness.driver.scanner.checksumErrors == 1, "frame 211's 9 bytes read with frame 301's")
    }
}
