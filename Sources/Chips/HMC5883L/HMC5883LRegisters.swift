/// Honeywell HMC5883L magnetometer register map: Honeywell HMC5883L datasheet, "Register
/// List" (table 2) and the register descriptions after it. Outputs are big endian and in the
/// order X, Z, Y (not X, Y, Z). Its identity is the three ASCII bytes 'H', '4', '3' at
/// 0x0A…0x0C; the QMC5883L sold under its name answers at 0x0D instead.
public enum HMC5883LRegister {
    /// Configuration A: MA bits 6:5 (samples averaged 1, 2, 4, 8), DO bits 4:2 (output rate in
    /// continuous mode: 0.75, 1.5, 3, 7.5, 15 (default), 30, 75 Hz), MS bits 1:0 (00 normal).
    public static let configurationA: UInt8 = 0x00
    /// Configuration B: GN bits 7:5 (gain; 001 = ±1.3 G, 1090 LSB/G is the default 0x20).
    public static let configurationB: UInt8 = 0x01
    /// Mode: MD bits 1:0 (00 continuous, 01 single measurement (default), 10/11 idle). After a
    /// single measurement the chip sets MD to idle by itself.
    public static let mode: UInt8 = 0x02
    /// X MSB, X LSB, Z MSB, Z LSB, Y MSB, Y LSB (0x03…0x08).
    public static let outXHigh: UInt8 = 0x03
    /// Status: LOCK bit 1, RDY bit 0.
    public static let status: UInt8 = 0x09
    /// Identification A, B, C (0x0A…0x0C): 'H', '4', '3'.
    public static let identification: UInt8 = 0x0A
    public static let identity: (UInt8, UInt8, UInt8) = (0x48, 0x34, 0x33)

    public static let address: UInt8 = 0x1E
    /// Power-on values of configuration A and B and of the mode register.
    public static let defaultConfigurationA: UInt8 = 0x10
    public static let defaultConfigurationB: UInt8 = 0x20
    public static let defaultMode: UInt8 = 0x01
    /// What the driver sets: configuration A 0x18 (1 sample, 75 Hz field, normal; differs from
    /// the power-on 0x10 so that a reset shows), gain 0x20 (±1.3 G), single measurements.
    public static let driverConfigurationA: UInt8 = 0x18
    public static let singleMeasurement: UInt8 = 0x01
    /// Gain in LSB/G by the GN field (datasheet table 9): 1370, 1090 (default), 820, 660, 440,
    /// 390, 330, 230.
    public static let countsPerGauss: [Int64] = [1370, 1090, 820, 660, 440, 390, 330, 230]
    /// Output range of every gain: −2048…2047; an overflowing axis reads −4096.
    public static let overflow: Int16 = -4096
    /// Output rates of configuration A's DO field, in mHz (7 = reserved).
    public static let ratesMilliHertz: [Int64] = [750, 1500, 3000, 7500, 15_000, 30_000, 75_000, 75_000]
    /// A single measurement takes about 6 ms (datasheet, single-measurement example: "wait
    /// 6 ms"; at most 160 Hz in single-measurement mode).
    public static let singleMeasurementNanoseconds: Int64 = 6_000_000
}
