import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

@Suite struct MPU6050ConversionTests {
    @Test func theDocumentedFrameDecodes() {
        let frame: [UInt8] = [0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x83, 0xFF, 0x7D, 0x00, 0x00]
        let decoded = frame.withUnsafeBytes {
            MPU6050Conversion.decodeFrame($0, accelerometerNanoUnitsPerLSB: 598_550, gyroscopeNanoUnitsPerLSB: 133_231)
        }
        #expect(abs(decoded.acceleration.x.doubleValue - 9.80665) < 1.0 / 65536 + 16384 * 0.5e-9)  // table rounding ≤ ½ nano per LSB
        #expect(decoded.acceleration.y == .zero && decoded.acceleration.z == .zero)
        #expect(abs(decoded.angularVelocity.x.doubleValue - .pi / 180) < 1.0 / 65536)
        #expect(abs(decoded.angularVelocity.y.doubleValue + .pi / 180) < 1.0 / 65536)
    }

    @Test func fullScaleTablesMatchTheDatasheetSensitivities() {
        for (scale, lsbPerG) in zip(MPU6050Table.accelerometerScales, [16384.0, 8192, 4096, 2048]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - 9.80665e9 / lsbPerG) <= 0.5)
        }
        for (scale, lsbPerDegree) in zip(MPU6050Table.gyroscopeScales, [131.0, 65.5, 32.8, 16.4]) {
            #expect(abs(Double(scale.nanoUnitsPerLSB) - .pi / 180 * 1e9 / lsbPerDegree) <= 0.5)
        }
        #expect(MPU6050Table.scale(in: MPU6050Table.accelerometerScales, holding: 3 * 9.80665).field == 1)
        #expect(MPU6050Table.scale(in: MPU6050Table.gyroscopeScales, holding: 100).field == 3)  // beyond: largest
    }
}

@Suite struct MPU6050DriverTests {
    /// Drains into a fixed buffer; returns the readings.
    func drain(_ driver: MPU6050Driver<MPU6050Emulator>, at time: Int64) throws -> (MPU6050Driver<MPU6050Emulator>.DrainResult, [SensorReading]) {
        var buffer = [SensorReading](repeating: SensorReading(timestampNanoseconds: 0, value: .temperature(.zero)), count: 400)
        let result = try buffer.withUnsafeMutableBufferPointer { try driver.drain(into: $0, nowNanoseconds: time) }
        return (result, Array(buffer[0..<result.readings]))
    }

    @Test func everySampleArrivesOnceWithTheRightValuesAndSpacing() throws {
        let emulator = MPU6050Emulator(motion: { _ in ((0.5, -1.25, 9.80665), (0.1, 0, -0.2)) })
        let driver = try MPU6050Driver(bus: emulator)
        #expect(driver.variant.name == "MPU-6050")
        var total = 0
        var last: Int64 = .min
        for step in 1...10 {  // 1 s in 100 ms drains at 100 Hz
            let now = Int64(step) * 100_000_000
            emulator.advance(to: now)
            let (result, readings) = try drain(driver, at: now)
            #expect(!result.overflowed && !result.recovered)
            for pair in stride(from: 0, to: readings.count, by: 2) {
                guard case .acceleration(let a) = readings[pair].value, case .angularVelocity(let w) = readings[pair + 1].value else {
                    Issue.record("frames decode to acceleration then angular velocity"); return
                }
                // ±4 g: one count is 1.197 mm/s²; ±500 °/s: one count is 0.27 mrad/s.
                #expect(abs(a.x.doubleValue - 0.5) < 0.0013 && abs(a.y.doubleValue + 1.25) < 0.0013 && abs(a.z.doubleValue - 9.80665) < 0.0013)
                #expect(abs(w.x.doubleValue - 0.1) < 0.0003 && abs(w.z.doubleValue + 0.2) < 0.0003)
                #expect(readings[pair].timestampNanoseconds > last)
                if last != .min { #expect(readings[pair].timestampNanoseconds - last == 10_000_000) }
                last = readings[pair].timestampNanoseconds
            }
            total += readings.count / 2
        }
        #expect(total == 101)  // samples at 0, 10, …, 1000 ms
    }

    @Test func aFIFOOverflowIsReportedAndTheStreamRealigns() throws {
        let emulator = MPU6050Emulator()
        let driver = try MPU6050Driver(bus: emulator)
        emulator.advance(to: 2_000_000_000)  // 200 frames = 2400 bytes > 1024
        let (overflow, lost) = try drain(driver, at: 2_000_000_000)
        #expect(overflow.overflowed && lost.isEmpty)
        #expect(driver.overflows == 1)
        emulator.advance(to: 2_100_000_000)
        let (next, readings) = try drain(driver, at: 2_100_000_000)
        #expect(!next.overflowed && readings.count == 20)  // 10 frames, aligned again
        guard case .acceleration(let a) = readings[0].value else { Issue.record("misaligned"); return }
        #expect(abs(a.z.doubleValue - 9.80665) < 0.0013)
    }

    @Test func aResetMidStreamIsRecovered() throws {
        let emulator = MPU6050Emulator()
        let driver = try MPU6050Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        #expect(try drain(driver, at: 100_000_000).1.count == 22)
        emulator.powerOnReset()  // asleep, FIFO off
        emulator.advance(to: 200_000_000)
        let (result, readings) = try drain(driver, at: 200_000_000)
        #expect(result.recovered && readings.isEmpty && driver.recoveries == 1)
        emulator.advance(to: 300_000_000)
        #expect(try drain(driver, at: 300_000_000).1.count == 22)  // woken at 200 ms: 200, 210, …, 300
    }

    @Test func identityNackAndTransientErrors() throws {
        let wrong = #expect(throws: ChipError.self) { _ = try MPU6050Driver(bus: MPU6050Emulator(whoAmI: 0x12)) }
        #expect(wrong?.description.contains("register 0x75 reads 0x12, expected 0x68 or 0x70 or 0x71 or 0x73") == true)
        let absent = #expect(throws: ChipError.self) { _ = try MPU6050Driver(bus: MPU6050Emulator(address: 0x69)) }
        #expect(absent?.description.contains("no device answered (NACK)") == true)

        let emulator = MPU6050Emulator()
        let driver = try MPU6050Driver(bus: emulator)
        emulator.advance(to: 100_000_000)
        emulator.inject(.inputOutputError(register: MPU6050Register.fifoReadWrite), count: 1)
        #expect(throws: ChipError.self) { _ = try drain(driver, at: 100_000_000) }
        // The frames the failed read did not take are still there, and the next drain gets them.
        #expect(try drain(driver, at: 100_000_000).1.count == 22)
    }

    @Test func mpu9250IsRecognised() throws {
        let driver = try MPU6050Driver(bus: MPU6050Emulator(whoAmI: 0x71))
        #expect(driver.variant.name == "MPU-9250" && driver.variant.hasMagnetometer)
    }
}
