import Chips
import Glibc
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct BNO08XTests {
    /// Readings per channel and the driver's outputs after running the hub to `end` ns, read on
    /// each of its data-ready edges as the board runtime does.
    final class Harness {
        let hub: BNO08XEmulator
        let driver: BNO08XDriver<BNO08XEmulator>
        var readings: [SensorReading] = []
        var buffer = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(Q16_16(rawValue: 0))), count: 512)

        init(_ hub: BNO08XEmulator = BNO08XEmulator(), rate: Int = 100) throws {
            self.hub = hub
            var configuration = BNO08XDriver<BNO08XEmulator>.Configuration()
            configuration.sampleRateHertz = rate
            driver = try BNO08XDriver(bus: hub, configuration: configuration)
        }

        func run(to end: Int64) throws {
            var reads = 0
            while let edge = hub.nextDataReadyNanoseconds, edge <= end, reads < 100_000 {
                hub.advance(to: edge)
                let count = try buffer.withUnsafeMutableBufferPointer { (buffer) throws(ChipError) in try driver.read(into: buffer, nowNanoseconds: edge) }
                readings += buffer[0..<count]
                reads += 1
            }
            hub.advance(to: end)
        }

        func values(_ channel: SensorChannel) -> [Vector3] {
            readings.filter { $0.value.channel == channel }.compactMap {
                switch $0.value {
                case .acceleration(let v), .angularVelocity(let v), .magneticField(let v): v
                default: nil
                }
            }
        }

        func count(_ channel: SensorChannel) -> Int { readings.filter { $0.value.channel == channel }.count }
    }

    /// The driver resets the hub, reads its announcements, asks its product ID and enables each
    /// report at its interval (µs).
    @Test func startingResetsTheHubAndEnablesEveryReport() throws {
        let harness = try Harness(rate: 200)
        #expect(harness.driver.state == .streaming)
        #expect(harness.hub.resetCommands == 1)
        #expect(harness.driver.resetAnnouncements == 2 && harness.driver.recoveries == 0)  // advertisement, reset complete
        #expect(harness.driver.productID?.softwarePartNumber == 10_004_637 && harness.driver.productID?.resetCause == 4)
        #expect(harness.hub.enabledReports == [0x01: 5000, 0x02: 5000, 0x03: 10_000, 0x05: 5000, 0x08: 5000, 0x11: 100_000, 0x13: 100_000, 0x1E: 1_000_000])
        #expect(harness.driver.samplePeriodNanoseconds == 5_000_000 && harness.driver.magnetometerPeriodNanoseconds == 10_000_000)
        try harness.run(to: 1_000_000)
        #expect(harness.driver.confirmedIntervals[0x01] == 5000, "the hub's Get Feature Responses are read")
    }

    /// Values in their Q points, stamped at the samples' instants by the base timestamp (the edge
    /// comes 100 µs after the samples); the field at its own 100 Hz.
    @Test func samplesComeInTheirUnitsAtTheirInstants() throws {
        let hub = BNO08XEmulator(motion: { _ in ((0.5, -1, 9.80665), (0, 0, 0.5)) }, field: { _ in (19, 0, -46) })
        let harness = try Harness(hub, rate: 200)
        try harness.run(to: 1_000_100_000)
        #expect(harness.count(.accelerometer) == 201 && harness.count(.gyroscope) == 201 && harness.count(.magnetometer) == 101)
        // Q8: 9.80665 × 256 = 2510.50 → 2511 counts = 9.80859375 m/s².
        #expect(harness.values(.accelerometer).allSatisfy { $0 == Vector3(x: Q16_16(0.5), y: Q16_16(-1), z: Q16_16(9.80859375)) })
        #expect(harness.values(.gyroscope).allSatisfy { $0 == Vector3(x: Q16_16(0), y: Q16_16(0), z: Q16_16(0.5)) })
        #expect(harness.values(.magnetometer).allSatisfy { $0 == Vector3(x: Q16_16(19), y: Q16_16(0), z: Q16_16(-46)) })
        for channel in [SensorChannel.accelerometer, .magnetometer] {
            let times = harness.readings.filter { $0.value.channel == channel }.map(\.timestampNanoseconds)
            let period: Int64 = channel == .magnetometer ? 10_000_000 : 5_000_000
            #expect(times.first == 0 && times.last == 1_000_000_000)
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == period }, "\(channel)")
        }
        #expect(harness.driver.lostPackets == 0 && harness.driver.framingErrors == 0)
    }

    /// The hub's own outputs: its rotation vectors (here the gyroscope integrated: 0.5 rad/s
    /// about z for the report's time), steps, stability and activity.
    @Test func theHubsFusedOutputsAreKept() throws {
        let hub = BNO08XEmulator(motion: { _ in ((0, 0, 9.80665), (0, 0, 0.5)) }, steps: { Int($0 / 500_000_000) })
        let harness = try Harness(hub)
        try harness.run(to: 1_000_100_000)
        let fused = harness.driver.fused
        let game = try #require(fused.gameRotationVector)
        let angle = 0.5 * Double(game.timestampNanoseconds) / 1e9
        #expect(game.timestampNanoseconds == 1_000_000_000)
        #expect(abs(game.quaternion.w.doubleValue - cos(angle / 2)) < 2e-4 && abs(game.quaternion.z.doubleValue - sin(angle / 2)) < 2e-4)
        #expect(abs(game.quaternion.x.doubleValue) < 1e-4 && game.headingAccuracy == nil)
        let rotation = try #require(fused.rotationVector)
        #expect(rotation.quaternion == game.quaternion && rotation.headingAccuracy == Q16_16(rawValue: 205 << 4) && rotation.accuracy == 3)
        #expect(fused.steps == 2 && fused.stability == .motion && fused.activity == .walking && fused.activityConfidence == 100)
    }

    /// The hub's step counter is 16 bits: the driver's count goes on past the wrap.
    @Test func stepsCountOnPastTheSixteenBitWrap() throws {
        let harness = try Harness(BNO08XEmulator(steps: { 65_530 + Int($0 / 100_000_000) }))
        try harness.run(to: 1_000_100_000)
        #expect(harness.driver.fused.steps == 65_540)
    }

    /// An unsolicited reset (advertisement, reset complete, reports off): counted once,
    /// reports enabled again, samples resume, and the restarted sequence numbers are no gap.
    @Test func aResetMidStreamIsCountedAndRecovered() throws {
        let harness = try Harness()
        try harness.run(to: 500_000_000)
        let before = harness.count(.accelerometer)
        harness.hub.reset()
        #expect(harness.hub.enabledReports.isEmpty)
        try harness.run(to: 1_000_100_000)
        #expect(harness.driver.recoveries == 1 && harness.driver.state == .streaming)
        #expect(harness.hub.enabledReports.count == 8 && harness.hub.setFeatureCommands == 16)
        #expect(harness.hub.resetCause == 2 && harness.driver.productID?.resetCause == 2)
        #expect(harness.count(.accelerometer) - before >= 49, "samples resume at once")
        #expect(harness.driver.lostPackets == 0 && harness.driver.framingErrors == 0)
    }

    /// Reports that stop with no reset announced (the announcements lost) are enabled again
    /// after the silence limit.
    @Test func reportsThatStopSilentlyAreEnabledAgain() throws {
        let harness = try Harness()
        try harness.run(to: 200_000_000)
        harness.hub.reset()
        var scratch = [UInt8](repeating: 0, count: 64)
        for _ in 0..<2 {  // the advertisement and reset complete, taken by someone else
            try scratch.withUnsafeMutableBytes { try harness.hub.read(address: 0x4A, into: $0) }
        }
        let before = harness.count(.accelerometer)
        try harness.run(to: 650_000_000)
        #expect(harness.count(.accelerometer) == before && harness.driver.featureRefreshes == 0)
        // No edge comes from a silent hub: the runtime's watchdog reads it.
        _ = try harness.buffer.withUnsafeMutableBufferPointer { (buffer) throws(ChipError) in try harness.driver.read(into: buffer, nowNanoseconds: 750_000_000) }
        #expect(harness.driver.featureRefreshes == 1 && harness.hub.enabledReports.count == 8)
        try harness.run(to: 1_000_000_000)
        #expect(harness.count(.accelerometer) > before + 20 && harness.driver.recoveries == 0)
    }

    @Test func aNACKIsABusErrorAndTheNextReadGoesOn() throws {
        let harness = try Harness()
        try harness.run(to: 100_000_000)
        harness.hub.inject(.noAcknowledge, count: 1)
        harness.hub.advance(to: 110_100_000)
        #expect {
            _ = try harness.buffer.withUnsafeMutableBufferPointer { (buffer) throws(ChipError) in try harness.driver.read(into: buffer, nowNanoseconds: 110_100_000) }
        } throws: { error in
            guard case .bus(let busError) = error as? ChipError else { return false }
            return busError.kind == .noAcknowledge && busError.address == 0x4A
        }
        let before = harness.count(.accelerometer)
        try harness.run(to: 200_100_000)
        #expect(harness.count(.accelerometer) == before + 11)  // 100 … 200 ms: the batches the NACK met waited in the hub
    }

    /// A packet cut inside its last report: the reports before the cut are delivered, the cut
    /// one dropped and counted.
    @Test func aTruncatedPacketKeepsItsWholeReports() throws {
        let harness = try Harness()
        try harness.run(to: 100_000_000)
        harness.hub.inject(.truncatedPacket(bytes: 3))
        try harness.run(to: 200_100_000)
        #expect(harness.driver.truncatedBatches == 1)
        #expect(harness.count(.accelerometer) == 21 && harness.count(.magnetometer) == 21)  // the cut report is the last (0x08)
    }

    @Test func aBadLengthIsCountedAndNothingIsLost() throws {
        let harness = try Harness()
        try harness.run(to: 100_000_000)
        harness.hub.inject(.badLength)
        try harness.run(to: 200_100_000)
        #expect(harness.driver.framingErrors == 1 && harness.driver.lostPackets == 0)
        #expect(harness.count(.accelerometer) == 21)
    }

    @Test func aSequenceGapIsALostPacket() throws {
        let harness = try Harness()
        try harness.run(to: 100_000_000)
        harness.hub.inject(.sequenceGap)
        try harness.run(to: 200_100_000)
        #expect(harness.driver.lostPackets == 1)
    }

    /// A hub left unread drops its oldest packets (its buffer is finite): every one it dropped
    /// is counted as lost by the sequence numbers, no more.
    @Test func packetsAHubDroppedAreCountedAsLost() throws {
        let harness = try Harness()
        try harness.run(to: 100_000_000)
        harness.hub.advance(to: 1_000_000_000)  // nobody reads: the batches of 100 ms … 1 s, 91, wait; 64 are kept
        #expect(harness.hub.droppedPackets == 27)
        try harness.run(to: 1_100_100_000)
        #expect(harness.driver.lostPackets == 27 && harness.driver.framingErrors == 0)
        #expect(harness.count(.accelerometer) == 111 - 27)  // 0 … 1.1 s, less the dropped
    }

    /// A header that changes between the header read and the packet read: that packet is
    /// dropped (counted as a framing error), and the gap it leaves counted as a lost packet.
    @Test func aHeaderThatChangesLosesOnePacket() throws {
        let harness = try Harness()
        try harness.run(to: 100_000_000)
        harness.hub.inject(.headerChange)
        try harness.run(to: 200_100_000)
        #expect(harness.driver.framingErrors == 1 && harness.driver.lostPackets == 1)
        #expect(harness.count(.accelerometer) == 20)
    }

    /// Something at 0x4A that is not a BNO08x (a floating bus: 0xFF) is refused with what to check.
    @Test func junkIsNotTakenForAHub() {
        let device = ScriptedSHTPDevice([[UInt8]](repeating: [0xFF, 0xFF, 0xFF, 0xFF], count: 64))
        #expect {
            _ = try BNO08XDriver(bus: device)
        } throws: { error in
            guard case .unexpectedPackets(let chip, _, let address, _)? = error as? ChipError else { return false }
            return chip == "BNO08x" && address == 0x4A && (error as? ChipError)?.description.contains("PS0/PS1") == true
        }
        #expect(device.reads <= 32)
    }

    /// ChipProbe names a BNO08x by its Product ID Response, at either address.
    @Test func theProbeNamesAHubByItsProductID() throws {
        let bus = EmulatedI2CBus()
        bus.attach(BNO08XEmulator(address: 0x4B), at: 0x4B)
        let findings = try ChipProbe.probe(bus)
        #expect(findings.map(\.address) == [0x4B])
        #expect(findings.first?.outcome == .identified(driver: "bno08x", chip: "BNO08x (BNO085/BNO086) sensor hub, SHTP"))
    }
}
