/// The MPU-6050 family's variants and settings as data (PS-MPU-6000A-00 rev. 3.4 §6.1–6.2,
/// RM-MPU-6000A-00 §4.4–4.5, §4.32; MPU-6500/9250 WHO_AM_I values from their register maps).
public enum MPU6050Table {
    public struct Variant: Sendable, Equatable {
        public var name: String
        public var whoAmI: UInt8
        /// Whether an AK8963 magnetometer sits behind the chip (MPU-9250 family).
        public var hasMagnetometer: Bool
    }

    public static let variants: [Variant] = [
        Variant(name: "MPU-6050", whoAmI: 0x68, hasMagnetometer: false),
        Variant(name: "MPU-6500", whoAmI: 0x70, hasMagnetometer: false),
        Variant(name: "MPU-9250", whoAmI: 0x71, hasMagnetometer: true),
        Variant(name: "MPU-9255", whoAmI: 0x73, hasMagnetometer: true),
    ]

    /// AD0 low 0x68, high 0x69.
    public static let addresses: [UInt8] = [0x68, 0x69]

    public struct FullScale: Sendable, Equatable {
        /// The register field value (FS_SEL / AFS_SEL).
        public var field: UInt8
        /// The range in SI units: m/s² or rad/s (±).
        public var range: Double
        /// One LSB in nano-units (nm/s² or nrad/s), from the datasheet's sensitivity:
        /// g / (LSB/g) with g = 9.80665 m/s², or (π/180) / (LSB/(°/s)).
        public var nanoUnitsPerLSB: Int64
    }

    /// ±2 g 16384 LSB/g, ±4 g 8192, ±8 g 4096, ±16 g 2048 (§6.2).
    public static let accelerometerScales: [FullScale] = [
        FullScale(field: 0, range: 2 * 9.80665, nanoUnitsPerLSB: 598_550),    // 9.80665 / 16384 = 5.985504e-4
        FullScale(field: 1, range: 4 * 9.80665, nanoUnitsPerLSB: 1_197_101),
        FullScale(field: 2, range: 8 * 9.80665, nanoUnitsPerLSB: 2_394_202),
        FullScale(field: 3, range: 16 * 9.80665, nanoUnitsPerLSB: 4_788_403),
    ]

    /// ±250 °/s 131 LSB/(°/s), ±500 65.5, ±1000 32.8, ±2000 16.4 (§6.1).
    public static let gyroscopeScales: [FullScale] = [
        FullScale(field: 0, range: 250 * .pi / 180, nanoUnitsPerLSB: 133_231),   // (π/180)/131 = 1.332312e-4
        FullScale(field: 1, range: 500 * .pi / 180, nanoUnitsPerLSB: 266_462),
        FullScale(field: 2, range: 1000 * .pi / 180, nanoUnitsPerLSB: 532_113),  // /32.8
        FullScale(field: 3, range: 2000 * .pi / 180, nanoUnitsPerLSB: 1_064_225), // /16.4
    ]

    /// The smallest full scale that holds `range` (SI units), or the largest.
    public static func scale(in scales: [FullScale], holding range: Double) -> FullScale {
        scales.first { $0.range >= range } ?? scales[scales.count - 1]
    }

    /// Gyroscope output rate with the digital low-pass filter on (DLPF_CFG 1…6): 1 kHz.
    public static let internalRateHertz = 1000
}
