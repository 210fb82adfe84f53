import Chips
import FixedPoint
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// A fusion chip's own outputs through the board runtime (`chip-fusion = on`): passed on once
/// per new attitude, counted, with what the chip has of steps, classes and calibration; and
/// its driver's counters in the status.
@Suite struct ChipFusionBoardTests {
    static func board(_ chip: String, fusion: Bool = true) throws -> BoardRuntime {
        let text = "board = sim\n[chip imu]\nbus = emulated\n" + (fusion ? "chip-fusion = on\n" : "") + chip
        return try BoardRuntime(try BoardFileParser.parse(text, path: "sim.board"), root: ProjectPaths.root, speed: 0)
    }

    static let bno08x = "driver = bno08x\naddress = 0x4A\ninterrupt = GPIO17\nrate = 100\n"
    static let bno055 = "driver = bno055\naddress = 0x28\n"

    static func collect(_ runtime: BoardRuntime, until end: Int64) throws -> [ChipFusionReading] {
        var readings: [ChipFusionReading] = []
        runtime.onChipFusion = { readings.append($0) }
        try runtime.run(untilNanoseconds: end) { _ in }
        return readings
    }

    @Test func withoutTheKeyNothingIsPassedOn() throws {
        let runtime = try Self.board(Self.bno08x, fusion: false)
        #expect(try Self.collect(runtime, until: 500_000_000).isEmpty)
        #expect(runtime.status[0].chipFusionReadings == 0)
    }

    /// A BNO08x at rest: its rotation vector every 10 ms, each once, stamped by the hub like its
    /// sensors, level, with its accuracy, steps (none) and classes (still, stationary).
    @Test func theBNO08XsOwnOutputsComeOncePerRotationVector() throws {
        let runtime = try Self.board(Self.bno08x)
        let readings = try Self.collect(runtime, until: 2_000_000_000)
        #expect(readings.count == 200 && runtime.status[0].chipFusionReadings == 200, "\(readings.count)")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $1.timestampNanoseconds - $0.timestampNanoseconds == 10_000_000 })
        let last = try #require(readings.last)
        #expect(last.label == "imu" && last.attitudeAccuracy == 3 && last.gameAttitude != nil)
        #expect(abs(last.headingAccuracy!.doubleValue - 0.05) < 0.001, "the emulator's 0.05 rad")
        #expect(last.steps == 0 && last.activity == .still && last.activityConfidence == 100 && last.stability == .stationary)
        #expect(last.calibration == nil)
        let tilt = last.attitude.eulerAngles
        #expect(abs(tilt.roll.doubleValue) < 0.01 && abs(tilt.pitch.doubleValue) < 0.01, "\(tilt)")
    }

    /// The BNO055's CALIB_STAT as the chip sets it: system, gyroscope, accelerometer, field.
    @Test func theBNO055sCalibrationStatusComesWithItsQuaternion() throws {
        let runtime = try Self.board(Self.bno055)
        let chip = try #require(runtime.sessions[0].emulation?.chip as? BNO055Emulator)
        chip.calibrationStatus = 0b11_10_01_11
        let readings = try Self.collect(runtime, until: 1_000_000_000)
        #expect(readings.count >= 98 && readings.count == runtime.status[0].chipFusionReadings, "\(readings.count)")
        let last = try #require(readings.last)
        #expect(last.calibration == BNO055CalibrationStatus(system: 3, gyroscope: 2, accelerometer: 1, magnetometer: 3))
        #expect(last.steps == nil && last.activity == nil && last.attitudeAccuracy == nil)
    }

    /// The BNO08x driver's own counters reach the status: a lost packet is a sequence gap, a
    /// reset a recovery with two announcements (advertisement, reset complete).
    @Test func theBNO08XsDriverCountersReachTheStatus() throws {
        let runtime = try Self.board(Self.bno08x)
        _ = try Self.collect(runtime, until: 300_000_000)
        let hub = try #require(runtime.sessions[0].emulation?.chip as? BNO08XEmulator)
        func counter(_ name: String) -> Int? { runtime.status[0].driverCounters.first { $0.name == name }?.count }
        #expect(counter("sequence gaps") == 0 && counter("reset announcements") == 2)
        hub.inject(.sequenceGap)
        _ = try Self.collect(runtime, until: 600_000_000)
        #expect(counter("sequence gaps") == 1, "\(runtime.status[0].driverCounters)")
        hub.reset()
        let after = try Self.collect(runtime, until: 900_000_000)
        #expect(counter("reset announcements") == 4 && runtime.status[0].recoveries == 1, "\(runtime.status[0].driverCounters)")
        #expect(after.count >= 29, "the stream goes on: \(after.count)")
    }

    /// Every rotation mount's quaternion turns a chip vector as the runtime mounts the chip's
    /// sensors; every mirroring one has none.
    @Test func aMountsRotationTurnsVectorsAsTheMountDoes() {
        let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        var rotations = 0
        for permutation in permutations {
            for signs in 0..<8 {
                let mount = BoardDescription.AxisMapping(axes: (0..<3).map { (permutation[$0], signs >> $0 & 1 == 1 ? -1 : 1) })
                let chip = Vector3(x: Q16_16(0.3), y: Q16_16(-0.5), z: Q16_16(0.8))
                let mounted = BoardRuntime.mounted(SensorReading(timestampNanoseconds: 0, value: .acceleration(chip)), mount)
                guard case .acceleration(let expected) = mounted.value else { continue }
                guard let m = mount.rotation else { continue }  // a mirror: no rotation does it
                rotations += 1
                let turned = m.rotate(chip)
                #expect(abs(turned.x.doubleValue - expected.x.doubleValue) < 1e-4 && abs(turned.y.doubleValue - expected.y.doubleValue) < 1e-4
                        && abs(turned.z.doubleValue - expected.z.doubleValue) < 1e-4, "\(mount.axes): \(turned) ≠ \(expected)")
            }
        }
        #expect(rotations == 24, "a cube has 24 rotations among its 48 signed permutations")
    }
}

/// A BNO08x walked (`synthetic:walk`: 18 steps per 18 s cycle): its own step counter and
/// activity class beside our pedometer on its raw accelerometer.
@Suite struct ChipFusionStepTests {
    @Test func theBNO08XsStepCounterAndOurPedometerCountTheWalk() throws {
        let runtime = try ChipFusionBoardTests.board(ChipFusionBoardTests.bno08x + "motion = synthetic:walk\n")
        var pedometer = PedometerStage()
        var chip: [ChipFusionReading] = []
        runtime.onChipFusion = { chip.append($0) }
        try runtime.run(untilNanoseconds: 36_000_000_000) { pedometer.process($0) { _ in } }
        func last(before seconds: Double) -> ChipFusionReading? { chip.last { Double($0.timestampNanoseconds) < seconds * 1e9 } }
        #expect(last(before: 2)?.steps == 0 && last(before: 2)?.activity == .still)
        #expect(last(before: 8)?.activity == .walking, "\(String(describing: last(before: 8)?.activity))")
        #expect(last(before: 17.9)?.steps == 18 && last(before: 17.9)?.activity == .still)
        #expect(chip.last?.steps == 36, "\(String(describing: chip.last?.steps))")
        print("synthetic:walk, 36 s: the BNO08x emulator counted \(chip.last?.steps ?? -1), our pedometer \(pedometer.numberOfSteps) (truth 36)")
        #expect(abs(pedometer.numberOfSteps - 36) <= 2, "ours \(pedometer.numberOfSteps)")
    }
}
