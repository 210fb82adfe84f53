import SensorBus

/// What both LSM6DSx drivers write to set a variant's rate and full scales: the register
/// values differ between the LSM6DSO map (ODR and FS share CTRL1_XL / CTRL2_G) and the
/// LSM6DSV16X's (CTRL1/CTRL2 hold OP_MODE + ODR, CTRL8/CTRL6 the full scales).
struct LSM6DSXSettings {
    let map: LSM6DSXTable.RegisterMap
    /// ODR field of both sensors (also the FIFO batch rate code: BDR codes are ODR codes).
    let rateField: UInt8
    let accelerometerScale: (field: UInt8, rangeG: Int, nanoUnitsPerLSB: Int64)
    let gyroscopeScale: (field: UInt8, rangeDegreesPerSecond: Int, nanoUnitsPerLSB: Int64)

    /// ±8 g and ±1000 °/s (room for a shaken board; 0.24 mg and 35 mdps per count), at the
    /// ODR nearest `rateHertz`.
    init(map: LSM6DSXTable.RegisterMap, rateHertz: Int) {
        self.map = map
        rateField = LSM6DSXTable.rateField(hertz: rateHertz, map: map)
        accelerometerScale = LSM6DSXTable.accelerometerScales(map).first { $0.rangeG == 8 }!
        gyroscopeScale = LSM6DSXTable.gyroscopeScales(map).first { $0.rangeDegreesPerSecond == 1000 }!
    }

    /// Time between two samples, ns (truncated).
    var samplePeriodNanoseconds: Int64 { 1_000_000_000_000 / LSM6DSXTable.rates(map)[Int(rateField)] }

    /// CTRL1_XL / CTRL1: ODR_XL with FS_XL (LSM6DSO map) or OP_MODE_XL = 000, high-performance
    /// (LSM6DSV16X).
    var control1: UInt8 { map == .lsm6dsv16x ? rateField : rateField << 4 | accelerometerScale.field << 2 }
    /// CTRL2_G / CTRL2, the same way for the gyroscope. Read back by the polled driver to
    /// notice a reset (it reads 0 after one).
    var control2: UInt8 { map == .lsm6dsv16x ? rateField : rateField << 4 | gyroscopeScale.field << 2 }

    /// Writes the full scales where the map keeps them apart (LSM6DSV16X CTRL8, CTRL6), then
    /// CTRL1 and CTRL2, which start the sensors.
    func write<Bus: I2CBus>(_ access: RegisterAccess<Bus>, chip: String) throws(ChipError) {
        if map == .lsm6dsv16x {
            try access.write(LSM6DSXRegister.control8, accelerometerScale.field, "setting the \(chip) accelerometer full scale")
            try access.write(LSM6DSXRegister.control6, gyroscopeScale.field, "setting the \(chip) gyroscope full scale")
        }
        try access.write(LSM6DSXRegister.control1Accelerometer, control1, "starting the \(chip) accelerometer")
        try access.write(LSM6DSXRegister.control2Gyroscope, control2, "starting the \(chip) gyroscope")
    }
}

extension RegisterAccess {
    /// Identifies an LSM6DSx among `variants`, software-resets it (CTRL3 SW_RESET, self-clearing)
    /// and sets BDU and IF_INC, both maps alike. Returns the variant found.
    func resetLSM6DSX(among variants: [LSM6DSXTable.Variant], family: String) throws(ChipError) -> LSM6DSXTable.Variant {
        let identity = try identify(register: LSM6DSXRegister.whoAmI, expected: variants.map(\.whoAmI), family: family)
        let variant = variants.first { $0.whoAmI == identity }!  // identify() matched one
        try write(LSM6DSXRegister.control3, LSM6DSXRegister.softwareReset | LSM6DSXRegister.addressIncrement, "resetting the \(variant.name)")
        try waitUntilClear(register: LSM6DSXRegister.control3, mask: LSM6DSXRegister.softwareReset, what: "the \(variant.name) software reset")
        // BDU: the low and high bytes of one output come from the same sample.
        try write(LSM6DSXRegister.control3, LSM6DSXRegister.blockDataUpdate | LSM6DSXRegister.addressIncrement, "configuring the \(variant.name)")
        return variant
    }
}
