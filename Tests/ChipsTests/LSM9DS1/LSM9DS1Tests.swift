import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct LSM9DS1Tests {
    static func motion(_ time: Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double),
                                          magneticField: (Double, Double, Double)) {
        ((1.5, -2.25, 9.5), (0.25, -0.5, 1.0), (22.0, -5.5, -41.0))
    }

    @Test func sensitivityTablesMatchTheDatasheet() {
        for (scale, milligPerLSB) in zip(LSM9DS1Table.accelerometerScales, [0.061, 0.122, 0.244, 0.732]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - milligPerLSB * 9.80665e6) <= 0.5)
        }
        for (scale, millidegreesPerLSB) in zip(LSM9DS1Table.gyroscopeScales, [8.75, 17.5, 70]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - millidegreesPerLSB * .pi / 180 * 1e6) <= 0.5)
        }
        #expect(LSM9DS1Table.accelerometerScales.map(\.field) == [0, 2, 3, 1])  // FS_XL 01 is ±16 g
    }

    @Test func inertialDriverReadsTheMotionWithinOneCount() throws {
        let emulator = LSM9DS1Emulator(motion: Self.motion)
        let driver = try LSM9DS1InertialDriver(bus: emulator)
        #expect(try driver.read(nowNanoseconds: 0) == nil)
        emulator.advance(to: 20_000_000)
        let pair = try #require(try driver.read(nowNanoseconds: 20_000_000))
        guard case .acceleration(let a) = pair.acceleration.value, case .angularVelocity(let w) = pair.angularVelocity.value else {
            Issue.record("expected acceleration and angular velocity"); return
        }
        // ±8 g: 2.39 mm/s² per count; ±500 °/s: 0.305 mrad/s per count.
        #expect(abs(a.x.doubleValue - 1.5) < 0.0024 && abs(a.y.doubleValue + 2.25) < 0.0024 && abs(a.z.doubleValue - 9.5) < 0.0024)
        #expect(abs(w.x.doubleValue - 0.25) < 0.00031 && abs(w.y.doubleValue + 0.5) < 0.00031 && abs(w.z.doubleValue - 1.0) < 0.00031)
        #expect(try driver.read(nowNanoseconds: 21_000_000) == nil)  // no new data until the next ODR tick
    }

    @Test func magnetometerDriverReadsTheFieldAndNeedsTheAutoIncrementBit() throws {
        let emulator = LSM9DS1Emulator(motion: Self.motion)
        let driver = try LSM9DS1MagnetometerDriver(bus: emulator)
        emulator.advance(to: 30_000_000)
        let reading = try #require(try driver.read(nowNanoseconds: 30_000_000))
        guard case .magneticField(let field) = reading.value else { Issue.record("expected a field"); return }
        #expect(abs(field.x.doubleValue - 22) < 0.015 && abs(field.y.doubleValue + 5.5) < 0.015 && abs(field.z.doubleValue + 41) < 0.015)
        // Without the MSB the magnetometer re-reads one register (the datasheet's I2C rule).
        var bytes = [UInt8](repeating: 0, count: 2)
        try bytes.withUnsafeMutableBytes { try emulator.readRegisters(address: 0x1C, register: 0x0F, into: $0) }
        #expect(bytes == [0x3D, 0x3D])
    }

    @Test func resetsAreRecoveredAndIdentityChecked() throws {
        let emulator = LSM9DS1Emulator()
        let inertial = try LSM9DS1InertialDriver(bus: emulator)
        let magnetometer = try LSM9DS1MagnetometerDriver(bus: emulator)
        emulator.advance(to: 50_000_000)
        #expect(try inertial.read(nowNanoseconds: 50_000_000) != nil)
        emulator.powerOnReset()
        #expect(try inertial.read(nowNanoseconds: 60_000_000) == nil && inertial.recoveries == 1)
        #expect(try magnetometer.read(nowNanoseconds: 60_000_000) == nil && magnetometer.recoveries == 1)
        emulator.advance(to: 100_000_000)
        #expect(try inertial.read(nowNanoseconds: 100_000_000) != nil)
        #expect(try magnetometer.read(nowNanoseconds: 100_000_000) != nil)

        let swapped = #expect(throws: ChipError.self) { _ = try LSM9DS1InertialDriver(bus: emulator, address: 0x1C) }
        #expect(swapped?.description.contains("reads 0x3D, expected 0x68") == true)  // the magnetometer's address
        emulator.inject(.noAcknowledge, count: 1)
        #expect(throws: ChipError.self) { _ = try inertial.read(nowNanoseconds: 120_000_000) }
        emulator.advance(to: 140_000_000)
        #expect(try inertial.read(nowNanoseconds: 140_000_000) != nil)
    }
}
