public import FixedPoint

/// The ICM-20948's data registers to SI fixed point: pure functions, no I/O.
public enum ICM20948Conversion {
    /// One decoded 23-byte burst from ACCEL_XOUT_H (bank 0, 0x2D) to EXT_SLV_SENS_DATA_08 (0x43).
    public struct Sample: Sendable, Equatable {
        /// m/s², Q16.16, chip axes.
        public var acceleration: Vector3
        /// rad/s, Q16.16, chip axes.
        public var angularVelocity: Vector3
        /// Die temperature, °C, Q16.16.
        public var temperature: Q16_16
        /// ST1.DRDY of the AK09916 bytes: the master read a new field this cycle.
        public var magnetometerReady: Bool
        /// ST2.HOFL: that field is invalid (magnetic overflow).
        public var magnetometerOverflow: Bool
        /// µT, Q16.16, in the accelerometer's axes (AK09916Register.packageAxes applied).
        public var magneticField: Vector3
    }

    /// Worked example (DS-000189 tables 1–3 and §8 TEMP_OUT): at ±2 g and ±250 °/s the bytes
    ///   40 00  C0 00  00 00 | 00 83  FF 7D  00 00 | 00 00 | 01  E8 03  18 FC  00 00  00  10
    /// are a = (+16384, −16384, 0) counts = (+9.80665, −9.80665, 0) m/s²; ω = (+131, −131, 0)
    /// counts = (+1, −1, 0) °/s; TEMP_OUT 0 = 21 °C; ST1 DRDY, AK09916 (1000, −1000, 0) counts
    /// = (150, −150, 0) µT in its axes = (150, +150, 0) µT in the accelerometer's, ST2 0x10.
    public static func decode(_ bytes: UnsafeRawBufferPointer, accelerometerNanoUnitsPerLSB: Int64,
                              gyroscopeNanoUnitsPerLSB: Int64) -> Sample {
        func bigEndian(_ offset: Int) -> Int16 { MPU6050Conversion.signed16(bytes[offset], bytes[offset + 1]) }
        func vector(_ offset: Int, _ scale: Int64) -> Vector3 {
            Vector3(x: CountConversion.siValue(counts: bigEndian(offset), nanoUnitsPerLSB: scale),
                    y: CountConversion.siValue(counts: bigEndian(offset + 2), nanoUnitsPerLSB: scale),
                    z: CountConversion.siValue(counts: bigEndian(offset + 4), nanoUnitsPerLSB: scale))
        }
        let (x, y, z) = AK09916Register.packageAxes(CountConversion.littleEndian16(bytes, at: 15), CountConversion.littleEndian16(bytes, at: 17),
                                                    CountConversion.littleEndian16(bytes, at: 19))
        func microtesla(_ counts: Int16) -> Q16_16 {
            CountConversion.siValue(counts: counts, nanoUnitsPerLSB: AK09916Register.picoteslaPerLSB, denominator: 1_000_000)
        }
        return Sample(acceleration: vector(0, accelerometerNanoUnitsPerLSB), angularVelocity: vector(6, gyroscopeNanoUnitsPerLSB),
                      temperature: temperature(raw: bigEndian(12)), magnetometerReady: bytes[14] & 0x01 != 0,
                      magnetometerOverflow: bytes[22] & AK09916Register.overflow != 0,
                      magneticField: Vector3(x: microtesla(x), y: microtesla(y), z: microtesla(z)))
    }

    /// TEMP_OUT to °C in Q16.16: raw / 333.87 + 21 (§8 TEMP_OUT, RoomTemp_Offset 0), rounded to
    /// nearest. raw × 100 × 2¹⁶ < 2³⁹: exact in Int64.
    public static func temperature(raw: Int16) -> Q16_16 {
        let scaled = Int64(raw) * 100 * 65536
        let divisor = ICM20948Table.temperatureCentiLSBPerDegree
        let quotient = (scaled + (scaled >= 0 ? divisor / 2 : -divisor / 2)) / divisor
        return Q16_16(rawValue: Int32(quotient + ICM20948Table.temperatureOffsetCelsius * 65536))
    }
}
