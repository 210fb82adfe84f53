import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct AK8963Tests {
    @Test func readsTheFieldWithTheFactoryAdjustment() throws {
        // ASA 176, 177, 165: factors 1.1875, 1.19140625, 1.14453125 (datasheet §8.3.11).
        let emulator = AK8963Emulator(field: { _ in (30.0, -12.5, -44.0) })
        let driver = try AK8963Driver(bus: emulator)
        #expect(driver.picoteslaPerLSB == (178_125, 178_711, 171_680))
        #expect(try driver.read(nowNanoseconds: 0) == nil)
        emulator.advance(to: 10_000_000)
        let reading = try #require(try driver.read(nowNanoseconds: 10_000_000))
        guard case .magneticField(let b) = reading.value else { Issue.record("field"); return }
        // One count is ≈ 0.18 µT with these adjustments.
        #expect(abs(b.x.doubleValue - 30) < 0.09 && abs(b.y.doubleValue + 12.5) < 0.09 && abs(b.z.doubleValue + 44) < 0.09)
        #expect(try driver.read(nowNanoseconds: 11_000_000) == nil)  // ST2 was read: DRDY cleared until the next sample
    }

    @Test func overflowResetAndFaults() throws {
        var strength = 6000.0
        let emulator = AK8963Emulator(field: { _ in (strength, 0, 0) })
        let driver = try AK8963Driver(bus: emulator)
        emulator.advance(to: 10_000_000)
        #expect(try driver.read(nowNanoseconds: 10_000_000) == nil && driver.overflows == 1)  // beyond ±4912 µT
        strength = 40
        emulator.advance(to: 20_000_000)
        #expect(try driver.read(nowNanoseconds: 20_000_000) != nil)
        emulator.powerOnReset()
        #expect(try driver.read(nowNanoseconds: 25_000_000) == nil && driver.recoveries == 1)
        emulator.advance(to: 40_000_000)
        #expect(try driver.read(nowNanoseconds: 40_000_000) != nil)
        let absent = #expect(throws: ChipError.self) { _ = try AK8963Driver(bus: AK8963Emulator(address: 0x0D)) }
        #expect(absent?.description.contains("AK8963 identity register (0x00)") == true)
    }

    @Test func theMPU9250OpensItsBypassAndProbeFindsTheMagnetometer() throws {
        let bus = EmulatedI2CBus()
        let imu = MPU6050Emulator(whoAmI: 0x71)
        bus.attach(imu, at: 0x68)
        bus.attach(AK8963Emulator(), at: 0x0C)
        _ = try MPU6050Driver(bus: bus)
        #expect(try bus.readRegister(address: 0x68, register: MPU6050Register.interruptPinConfig) == MPU6050Register.bypassEnable)
        let findings = try ChipProbe.probe(bus)
        #expect(findings.first == .init(address: 0x0C, outcome: .identified(driver: "ak8963", chip: "AK8963 (MPU-9250 magnetometer, bypass on)")))
    }
}
