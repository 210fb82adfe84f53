/// Per variant and per register map: identities, output data rates and full scales, so that
/// adding a variant is adding a row.
public enum LSM6DSXTable {
    /// Which register map a variant has (see `LSM6DSXRegister`).
    public enum RegisterMap: Sendable, Equatable {
        /// LSM6DS3 / LSM6DS3TR-C: the LSM6DSO's control and output registers, and an older
        /// pattern FIFO (no tags, `LSM6DS3FIFORegister`) that `LSM6DS3FIFODriver` drains.
        case lsm6ds3
        /// LSM6DSO / LSM6DSOX / ISM330DHCX: tagged FIFO, FIFO_STATUS at 0x3A.
        case lsm6dso
        /// LSM6DSV16X: OP_MODE + ODR in CTRL1/CTRL2, scales in CTRL6/CTRL8, FIFO_STATUS at 0x1B.
        case lsm6dsv16x

        /// Whether the chip has the tagged FIFO (FIFO_DATA_OUT_TAG).
        public var hasTaggedFIFO: Bool { self != .lsm6ds3 }
    }

    public struct Variant: Sendable, Equatable {
        public var name: String
        public var whoAmI: UInt8
        public var map: RegisterMap
    }

    public static let variants: [Variant] = [
        Variant(name: "LSM6DS3", whoAmI: 0x69, map: .lsm6ds3),
        Variant(name: "LSM6DS3TR-C", whoAmI: 0x6A, map: .lsm6ds3),
        Variant(name: "ISM330DHCX", whoAmI: 0x6B, map: .lsm6dso),
        Variant(name: "LSM6DSO/LSM6DSOX", whoAmI: 0x6C, map: .lsm6dso),
        // WHO_AM_I = 0x70 (LSM6DSV16X datasheet ; the LSM6DSV shares it, the kernel's row names both).
        Variant(name: "LSM6DSV16X", whoAmI: 0x70, map: .lsm6dsv16x),
    ]
    /// I2C addresses: SDO/SA0 low 0x6A, high 0x6B (every variant).
    public static let addresses: [UInt8] = [0x6A, 0x6B]

    /// LSM6DSO map, ODR field → millihertz: 1 = 12.5 Hz, 2 = 26, 3 = 52, 4 = 104, 5 = 208,
    /// 6 = 416, 7 = 833, 8 = 1666 (DS12814, CTRL1_XL; the kernel's odr_avl).
    public static let ratesMilliHertz: [Int64] = [0, 12_500, 26_000, 52_000, 104_000, 208_000, 416_000, 833_000, 1_666_000]
    /// LSM6DSV16X map, ODR field → millihertz in high-performance mode: 2 = 7.5 Hz, 3 = 15,
    /// 4 = 30, 5 = 60, 6 = 120, 7 = 240, 8 = 480, 9 = 960, 10 = 1920 (the LSM6DSV16X datasheet's CTRL1; the kernel's LSM6DSV odr_avl;
    /// 1 = 1.875 Hz exists in low-power modes only, so it is left out: 0 here).
    public static let ratesMilliHertzLSM6DSV16X: [Int64] = [0, 0, 7_500, 15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000]

    /// The rate table of a map (index = ODR field; 0 = power-down or not available).
    public static func rates(_ map: RegisterMap) -> [Int64] {
        map == .lsm6dsv16x ? ratesMilliHertzLSM6DSV16X : ratesMilliHertz
    }

    /// The ODR field nearest `hertz` on `map`, never power-down.
    public static func rateField(hertz: Int, map: RegisterMap) -> UInt8 {
        let table = rates(map)
        let target = Int64(hertz) * 1000
        let index = table.indices.filter { table[$0] > 0 }.min { abs(table[$0] - target) < abs(table[$1] - target) } ?? 4
        return UInt8(index)
    }

    /// A full scale: the register field, the range and the LSB size in nano-SI units.
    public typealias Scale = (field: UInt8, range: Int, nanoUnitsPerLSB: Int64)

    /// LSM6DSO map FS_XL → (±g, nano-m/s² per LSB from 0.061, 0.122, 0.244, 0.488 mg/LSB,
    /// DS12814 table 2, mechanical characteristics): 01 is ±16 g.
    public static let accelerometerScales: [(field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 2, 598_206), (2, 4, 1_196_411), (3, 8, 2_392_823), (1, 16, 4_785_645),
    ]
    /// LSM6DSO map FS_G → (±°/s, nano-rad/s per LSB from 8.75, 17.5, 35, 70 mdps/LSB).
    public static let gyroscopeScales: [(field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 250, 152_716), (1, 500, 305_433), (2, 1000, 610_865), (3, 2000, 1_221_730),
    ]
    /// LSM6DSV16X CTRL8 FS_XL → (±g, nano-m/s² per LSB): the same sensitivities as the LSM6DSO
    /// (0.061 … 0.488 mg/LSB, the LSM6DSV16X datasheet's mechanical characteristics; the kernel's
    /// LSM6DSV fs_avl), fields in order 0…3.
    public static let accelerometerScalesLSM6DSV16X: [(field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)] = [
        (0, 2, 598_206), (1, 4, 1_196_411), (2, 8, 2_392_823), (3, 16, 4_785_645),
    ]
    /// LSM6DSV16X CTRL6 FS_G → (±°/s, nano-rad/s per LSB): 8.75, 17.5, 35, 70 mdps/LSB
    /// (the same table and kernel row; ±125 °/s (0) and ±4000 °/s (12) are not used here).
    public static let gyroscopeScalesLSM6DSV16X: [(field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)] = [
        (1, 250, 152_716), (2, 500, 305_433), (3, 1000, 610_865), (4, 2000, 1_221_730),
    ]

    /// The accelerometer scales of a map.
    public static func accelerometerScales(_ map: RegisterMap) -> [(field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)] {
        map == .lsm6dsv16x ? accelerometerScalesLSM6DSV16X : accelerometerScales
    }

    /// The gyroscope scales of a map.
    public static func gyroscopeScales(_ map: RegisterMap) -> [(field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)] {
        map == .lsm6dsv16x ? gyroscopeScalesLSM6DSV16X : gyroscopeScales
    }

    /// FIFO capacity in words (a word: the tag + 6 data bytes). LSM6DSO map: 512, the kernel's
    /// max_fifo_size for these chips. LSM6DSV16X: 511, the largest count its 9-bit DIFF_FIFO
    /// can report (the kernel's limit is 512, the watermark's). Taking no more than the
    /// silicon may hold only makes the engine drain sooner.
    public static func fifoCapacityWords(_ map: RegisterMap) -> Int { map == .lsm6dsv16x ? 511 : 512 }
}
