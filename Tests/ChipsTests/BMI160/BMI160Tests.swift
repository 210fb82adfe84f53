import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct BMI160Tests {
    func drain(_ driver: BMI160Driver<BMI160Emulator>, at time: Int64) throws -> (FIFODrainResult, [SensorReading]) {
        var buffer = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(.zero)), count: 400)
        let result = try buffer.withUnsafeMutableBufferPointer { try driver.drain(into: $0, nowNanoseconds: time) }
        return (result, Array(buffer[0..<result.readings]))
    }

    @Test func tablesMatchTheDatasheet() {
        for (scale, lsbPerDegree) in zip(BMI160Table.gyroscopeScales, [16.4, 32.8, 65.6, 131.2, 262.4]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - .pi / 180 * 1e9 / lsbPerDegree) <= 0.5)
        }
        #expect(BMI160Table.outputDataRateField(hertz: 100) == (8, 100_000))
        #expect(BMI160Table.outputDataRateField(hertz: 200) == (9, 200_000))
        #expect(BMI160Table.outputDataRateField(hertz: 30) == (6, 25_000))
    }

    @Test func everyFrameArrivesOnceGyroscopeFirstInTheFIFO() throws {
        let emulator = BMI160Emulator(motion: { _ in ((0.75, -1.5, 9.80665), (0.2, -0.1, 0.05)) })
        let driver = try BMI160Driver(bus: emulator)
        var total = 0
        for step in 1...5 {
            emulator.advance(to: Int64(step) * 100_000_000)
            let (result, readings) = try drain(driver, at: Int64(step) * 100_000_000)
            #expect(!result.overflowed && !result.recovered)
            for pair in stride(from: 0, to: readings.count, by: 2) {
                guard case .acceleration(let a) = readings[pair].value, case .angularVelocity(let w) = readings[pair + 1].value else {
                    Issue.record("acceleration then angular velocity"); return
                }
                // ±8 g: 2.39 mm/s² per count; ±1000 °/s: 0.53 mrad/s per count.
                #expect(abs(a.x.doubleValue - 0.75) < 0.0024 && abs(a.y.doubleValue + 1.5) < 0.0024 && abs(a.z.doubleValue - 9.80665) < 0.0024)
                #expect(abs(w.x.doubleValue - 0.2) < 0.00054 && abs(w.y.doubleValue + 0.1) < 0.00054 && abs(w.z.doubleValue - 0.05) < 0.00054)
            }
            total += readings.count / 2
        }
        #expect(total == 51)  // 100 Hz from t = 0 to 500 ms inclusive
    }

    @Test func overflowAndResetAreRecovered() throws {
        let emulator = BMI160Emulator()
        let driver = try BMI160Driver(bus: emulator)
        emulator.advance(to: 2_000_000_000)  // 200 frames = 2400 bytes: the FIFO dropped frames
        #expect(emulator.droppedFrames > 0)
        #expect(try drain(driver, at: 2_000_000_000).0.overflowed)
        #expect(driver.overflows == 1)
        emulator.advance(to: 2_100_000_000)
        #expect(try drain(driver, at: 2_100_000_000).1.count == 20)
        emulator.powerOnReset()
        emulator.advance(to: 2_150_000_000)  // suspended: no samples
        #expect(try drain(driver, at: 2_150_000_000).0.recovered)
        emulator.advance(to: 2_250_000_000)
        #expect(try drain(driver, at: 2_250_000_000).1.count == 22)  // restarted at 2150 ms: 11 frames
        #expect(driver.recoveries == 1)
    }

    @Test func identityAndBusFaults() throws {
        let error = #expect(throws: ChipError.self) { _ = try BMI160Driver(bus: BMI160Emulator(address: 0x69)) }
        #expect(error?.description.contains("Could not complete reading the BMI160 identity register (0x00)") == true)
        let emulator = BMI160Emulator()
        let driver = try BMI160Driver(bus: emulator)
        emulator.advance(to: 50_000_000)
        emulator.inject(.inputOutputError(register: BMI160Register.fifoData), count: 1)
        #expect(throws: ChipError.self) { _ = try drain(driver, at: 50_000_000) }
        #expect(try drain(driver, at: 50_000_000).1.count == 12)  // nothing lost: 6 frames still there
    }
}
