import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct LSM6DSXTests {
    @Test func tablesMatchTheDatasheetSensitivities() {
        for (scale, milligPerLSB) in zip(LSM6DSXTable.accelerometerScales, [0.061, 0.122, 0.244, 0.488]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - milligPerLSB * 9.80665e6) <= 0.5)
        }
        for (scale, millidegreesPerLSB) in zip(LSM6DSXTable.gyroscopeScales, [8.75, 17.5, 35, 70]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - millidegreesPerLSB * .pi / 180 * 1e6) <= 0.5)
        }
    }

    @Test func readsTheMotionOfEveryVariant() throws {
        for variant in LSM6DSXTable.variants {
            let emulator = LSM6DSXEmulator(whoAmI: variant.whoAmI, motion: { _ in ((-3.5, 0.25, 9.0), (1.5, -0.75, 0.125)) })
            let driver = try LSM6DSXDriver(bus: emulator)
            #expect(driver.variant == variant)
            #expect(try driver.read(nowNanoseconds: 0) == nil)
            emulator.advance(to: 10_000_000)
            let pair = try #require(try driver.read(nowNanoseconds: 10_000_000))
            guard case .acceleration(let a) = pair.acceleration.value, case .angularVelocity(let w) = pair.angularVelocity.value else {
                Issue.record("acceleration and angular velocity"); return
            }
            // ±8 g: 2.39 mm/s² per count; ±1000 °/s: 0.61 mrad/s per count.
            #expect(abs(a.x.doubleValue + 3.5) < 0.0024 && abs(a.y.doubleValue - 0.25) < 0.0024 && abs(a.z.doubleValue - 9.0) < 0.0024)
            #expect(abs(w.x.doubleValue - 1.5) < 0.00062 && abs(w.y.doubleValue + 0.75) < 0.00062 && abs(w.z.doubleValue - 0.125) < 0.00062)
        }
    }

    @Test func rateResetAndFaults() throws {
        let emulator = LSM6DSXEmulator()
        let driver = try LSM6DSXDriver(bus: emulator, rateHertz: 200)
        #expect(driver.rateField == 5)  // 208 Hz is the nearest
        var count = 0
        for step in 1...100 {  // 1 s polled at 100 Hz against 208 Hz: every poll has data
            emulator.advance(to: Int64(step) * 10_000_000)
            if try driver.read(nowNanoseconds: Int64(step) * 10_000_000) != nil { count += 1 }
        }
        #expect(count == 100)
        emulator.powerOnReset()
        #expect(try driver.read(nowNanoseconds: 1_010_000_000) == nil && driver.recoveries == 1)
        emulator.inject(.noAcknowledge, count: 1)
        let error = #expect(throws: ChipError.self) { _ = try driver.read(nowNanoseconds: 1_020_000_000) }
        #expect(error?.description.contains("reading the LSM6DSO/LSM6DSOX outputs") == true)
        let wrong = #expect(throws: ChipError.self) { _ = try LSM6DSXDriver(bus: LSM6DSXEmulator(whoAmI: 0x68)) }
        #expect(wrong?.description.contains("is not a LSM6DSx family") == true)
    }

    @Test func lis3mdlUsesItsOwnSensitivity() throws {
        let emulator = LSM9DS1Emulator(isLIS3MDL: true, motion: { _ in ((0, 0, 9.8), (0, 0, 0), (25.0, -10.0, -40.0)) })
        let driver = try LSM9DS1MagnetometerDriver(bus: emulator, variant: .lis3mdl)
        emulator.advance(to: 30_000_000)
        let reading = try #require(try driver.read(nowNanoseconds: 30_000_000))
        guard case .magneticField(let field) = reading.value else { Issue.record("field"); return }
        // ±4 G: 6842 LSB/G, one count is 0.0146 µT.
        #expect(abs(field.x.doubleValue - 25) < 0.015 && abs(field.y.doubleValue + 10) < 0.015 && abs(field.z.doubleValue + 40) < 0.015)
    }
}
