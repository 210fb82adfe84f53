import Chips
import FixedPoint
import Testing

@Suite struct BMP280ConversionTests {
    /// BST-BMP280-DS001 §3.11.3 table 16: the worked example.
    @Test func datasheetWorkedExample() {
        let calibration = BMP280Calibration.datasheetExample
        let fine = BMP280Conversion.fineTemperature(adcTemperature: 519_888, calibration)
        #expect(fine == 128_422)
        #expect(BMP280Conversion.temperatureCentidegrees(fineTemperature: fine) == 2508)  // 25.08 °C
        // 64-bit integer formula: 25767233 / 256 = 100653.254 Pa. The datasheet's table gives
        // 100653.27 Pa from its floating-point formula; the Linux bmp280 driver, fed the same
        // registers on i2c-stub, reports 100.653253906 kPa (../shared/specs/hil-testing.md).
        let pressure = BMP280Conversion.pressure(adcPressure: 415_148, fineTemperature: fine, calibration)
        #expect(pressure?.rawValue == 25_767_233)
        #expect(abs((pressure?.doubleValue ?? 0) - 100_653.27) < 0.05)
    }

    @Test func temperatureToQ16_16() {
        #expect(BMP280Conversion.temperature(centidegrees: 2508) == Q16_16(rawValue: 1_643_643))  // 25.08 × 65536 = 1 643 642.9
        #expect(BMP280Conversion.temperature(centidegrees: -4000) == Q16_16(-40.0))
    }

    @Test func calibrationBytesRoundTripLittleEndian() {
        let bytes = BMP280Calibration.datasheetExample.bytes
        #expect(bytes.count == 24)
        #expect(Array(bytes[0..<6]) == [0x70, 0x6B, 0x43, 0x67, 0x18, 0xFC])  // T1 = 27504, T2 = 26435, T3 = −1000
        let decoded = bytes.withUnsafeBytes { BMP280Calibration(bytes: $0) }
        #expect(decoded == .datasheetExample)
    }

    @Test func twentyBitResultAssembly() {
        // 0x65 0x5A 0xC0 → 0x655AC = 415148 (the example's adc_P as the registers hold it).
        #expect(BMP280Conversion.twentyBit(0x65, 0x5A, 0xC0) == 415_148)
        #expect(BMP280Conversion.twentyBit(0x80, 0x00, 0x00) == 0x80000)
    }

    @Test func garbageCalibrationNeverTraps() {
        let zeros = [UInt8](repeating: 0, count: 24).withUnsafeBytes { BMP280Calibration(bytes: $0) }
        #expect(BMP280Conversion.pressure(adcPressure: 415_148, fineTemperature: 0, zeros) == nil)
        let ones = [UInt8](repeating: 0xFF, count: 24).withUnsafeBytes { BMP280Calibration(bytes: $0) }
        for adc: Int32 in [0, 1, 0x7FFFF, 0xFFFFF] {
            _ = BMP280Conversion.fineTemperature(adcTemperature: adc, ones)
            _ = BMP280Conversion.pressure(adcPressure: adc, fineTemperature: .max, ones)
        }
    }
}
