/// MEMSIC MMC5983MA magnetometer register map (MMC5983MA datasheet Rev A, "Register Map" and
/// the register descriptions after it). The field is 18 bits per axis, unsigned with the null
/// field at 131 072 counts, 16 384 counts per gauss (±8 G); the four control registers are
/// write-only (they read 0), so a reset cannot be seen in them.
public enum MMC5983MARegister {
    /// Xout0 (X[17:10]), Xout1 (X[9:2]), Yout0, Yout1, Zout0, Zout1 (0x00…0x05), then XYZout2
    /// (0x06: X[1:0] bits 7:6, Y[1:0] bits 5:4, Z[1:0] bits 3:2).
    public static let outX0: UInt8 = 0x00
    public static let outXYZ2: UInt8 = 0x06
    /// Tout: temperature, about 0.8 °C per count from −75 °C (not used here).
    public static let temperature: UInt8 = 0x07
    /// Status: Meas_M_Done bit 0 (a field measurement is in the output registers), Meas_T_Done
    /// bit 1, OTP_Rd_Done bit 4 (the trimming was read from OTP after power-up).
    public static let status: UInt8 = 0x08
    /// Internal Control 0 (write-only): TM_M bit 0 (take a field measurement), TM_T bit 1, SET
    /// bit 3 and RESET bit 4 (a SET or RESET current pulse through the sensor; self-clearing),
    /// Auto_SR_en bit 5, OTP_Read bit 6.
    public static let control0: UInt8 = 0x09
    /// Internal Control 1 (write-only): BW bits 1:0 (measurement time 8, 4, 2, 0.5 ms), SW_RST bit 7.
    public static let control1: UInt8 = 0x0A
    /// Internal Control 2 (write-only): Cm_freq bits 2:0, Cmm_en bit 3 (continuous mode), Prd_set, En_prd_set.
    public static let control2: UInt8 = 0x0B
    /// Product ID 1: 0x30.
    public static let productID: UInt8 = 0x2F
    public static let identity: UInt8 = 0x30

    public static let address: UInt8 = 0x30
    public static let measureField: UInt8 = 0x01
    public static let setPulse: UInt8 = 0x08
    public static let resetPulse: UInt8 = 0x10
    public static let statusFieldDone: UInt8 = 0x01
    public static let statusOTPReadDone: UInt8 = 0x10
    /// BW = 01: 4 ms a measurement, so a SET and a RESET measurement fit in 10 ms (100 Hz out).
    public static let driverBandwidth: UInt8 = 0x01
    /// Measurement time by BW, ns.
    public static let measurementNanoseconds: [Int64] = [8_000_000, 4_000_000, 2_000_000, 500_000]
    /// 18-bit output: 16 384 counts per gauss, the null field at 2¹⁷ = 131 072 counts.
    public static let countsPerGauss: Int64 = 16384
    public static let nullFieldCounts: Int32 = 131_072
    public static let maximumCounts: Int32 = (1 << 18) - 1

    /// The three 18-bit counts of the seven output bytes at `bytes[offset...]`.
    @inlinable
    public static func counts(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> (Int32, Int32, Int32) {
        let low = Int32(bytes[offset + 6])
        func axis(_ index: Int) -> Int32 {
            Int32(bytes[offset + 2 * index]) << 10 | Int32(bytes[offset + 2 * index + 1]) << 2 | (low >> (6 - 2 * Int32(index)) & 0x03)
        }
        return (axis(0), axis(1), axis(2))
    }
}
