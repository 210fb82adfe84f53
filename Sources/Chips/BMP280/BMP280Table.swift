/// What differs between the BMP280 family's chips and settings: data, not code (the kernel
/// driver's table style). Sources: BST-BMP280-DS001 §3.3 (oversampling), §3.6.3 table 11
/// (standby), §3.3.3 (IIR filter); BST-BME280-DS002 §5.4.1 (id 0x60).
public enum BMP280Table {
    public struct Variant: Sendable, Equatable {
        public var name: String
        public var chipID: UInt8
    }

    /// Chips answering this family's id register. 0x56/0x57 are BMP280 engineering samples
    /// (the Linux driver accepts them too).
    public static let variants: [Variant] = [
        Variant(name: "BMP280", chipID: 0x58),
        Variant(name: "BMP280", chipID: 0x57),
        Variant(name: "BMP280", chipID: 0x56),
        Variant(name: "BME280", chipID: 0x60),
    ]

    /// I2C addresses: SDO to GND 0x76, to VDDIO 0x77 (§5.2).
    public static let addresses: [UInt8] = [0x76, 0x77]

    /// Standby time between measurements in normal mode, µs, by `t_sb` (table 11).
    public static let standbyMicroseconds: [UInt32] = [500, 62_500, 125_000, 250_000, 500_000, 1_000_000, 2_000_000, 4_000_000]

    /// Oversampling ×1, ×2, ×4, ×8, ×16 by `osrs` field value 1...5 (0 skips the measurement).
    public static let oversampling: [UInt8] = [0, 1, 2, 4, 8, 16, 16, 16]

    /// Measurement time in µs (§9.1, typical): 1000 + 2000 × osrs_t + 2000 × osrs_p + 500.
    public static func measurementMicroseconds(temperatureOversampling: UInt8, pressureOversampling: UInt8) -> UInt32 {
        1000 + 2000 * UInt32(temperatureOversampling) + 2000 * UInt32(pressureOversampling) + 500
    }
}
