public import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// A Bosch BNO055 (BMA280 accelerometer, BMM150 magnetometer, BMG160 gyroscope and a Cortex-M0
/// running Bosch's fusion, BST-BNO055-DS000-14) on I2C.
///
/// Modes: NDOF (default) runs the chip's own fusion, which also calibrates the three sensors in
/// the background: the sensor registers then hold offset-compensated data (§3.6.5.1–3), and the
/// chip's attitude quaternion and calibration status come with every read (`latestFusion`).
/// AMG gives the three sensors uncompensated, with no fusion. Either way the engine's own
/// pipeline runs on the accelerometer, gyroscope and field this driver returns.
///
/// Each read takes ACC_DATA_X_LSB … OPR_MODE (0x08…0x3D) in one 54-byte burst: the sensors, the
/// fusion outputs, TEMP, CALIB_STAT, SYS_STATUS, SYS_ERR and OPR_MODE of one moment. OPR_MODE
/// back at CONFIGMODE (its power-on value) says the chip was reset or lost power: it is set up
/// again (and its saved calibration profile written back), counted in `recoveries`. SYS_STATUS 1
/// throws with SYS_ERR's meaning.
///
/// No data-ready: the chip has no data-ready flag for its output registers (INT_STA's bits are
/// motion interrupts), so a sample is taken when at least ¾ of the 10 ms fusion period has
/// passed since the last (the engine polls at half the period: every other poll), and the field,
/// 20 Hz in NDOF (table 3-14), with every fifth.
///
/// Timing: mode switches need 19 ms into CONFIGMODE and 7 ms out of it (table 3-6); the driver
/// sleeps for them, which happens only when it opens or re-initialises the chip and when the
/// calibration profile is read (`readCalibrationProfile`).
public final class BNO055Driver<Bus: I2CBus> {
    public struct Configuration: Sendable, Equatable {
        /// NDOF (fusion, background calibration) or AMG (the three sensors only).
        public var mode: BNO055Register.OperationMode = .nineDegreesOfFreedom
        /// A profile saved from an earlier run, written in CONFIGMODE before the chip starts
        /// (and again after a reset), so that it is calibrated at once (§3.11.4).
        public var calibrationProfile: BNO055CalibrationProfile?

        public init() {}
    }

    /// What the chip's fusion gave with the latest sample (NDOF only).
    public struct Fusion: Sendable, Equatable {
        /// The chip's absolute orientation (QUA_DATA, Q2.14 on the chip, here Q2.30), in the
        /// chip's own axes and reference frame (§3.4 and table 3-13; not the engine's frame).
        public var attitude: Quaternion
        public var calibration: BNO055CalibrationStatus
        /// Die temperature, °C, Q16.16 (TEMP_SOURCE's reset choice: the accelerometer's).
        public var temperature: Q16_16
        public var timestampNanoseconds: Int64
    }

    public let bus: Bus
    public let address: UInt8
    public let configuration: Configuration
    /// Fusion output period in NDOF, and the period reads are made at in AMG: 10 ms.
    public let samplePeriodNanoseconds: Int64 = BNO055Register.fusionPeriodNanoseconds
    /// The field's period: 20 Hz in NDOF (table 3-14). In AMG the rate is page 1's MAG_Config,
    /// not set here: table 3-4 gives 10 Hz as the default, the register map's reset value 0x6D
    /// reads 20 Hz; at 10 Hz every other field delivered would repeat the one before.
    public let magnetometerPeriodNanoseconds: Int64 = BNO055Register.ndofMagnetometerPeriodNanoseconds
    public private(set) var recoveries = 0
    public private(set) var latestFusion: Fusion?
    /// Waits a mode switch's time, in nanoseconds (`ThreadSleep.sleep`; a fuzzer, whose bus has no
    /// processor behind it, passes one that returns at once).
    private let pause: (Int64) -> Void
    /// What a reset chip gets back: the configured profile, or a plausible one read since
    /// (what the chip learned this run is better than what it started with).
    private var profileToRestore: BNO055CalibrationProfile?
    private var lastSampleNanoseconds: Int64?
    private var lastFieldNanoseconds: Int64?

    /// The burst each read takes: 0x08 … 0x3D.
    static var burstLength: Int { Int(BNO055Register.operationMode - BNO055Register.accelerometerData) + 1 }

    private var access: RegisterAccess<Bus> { RegisterAccess(bus: bus, address: address, chip: "BNO055") }

    public init(bus: Bus, address: UInt8 = BNO055Register.address, configuration: Configuration = Configuration(),
                pause: @escaping (Int64) -> Void = ThreadSleep.sleep(nanoseconds:)) throws(ChipError) {
        self.bus = bus
        self.address = address
        self.configuration = configuration
        self.pause = pause
        profileToRestore = configuration.calibrationProfile
        try initialise()
    }

    private func initialise() throws(ChipError) {
        // Page 0 first: CHIP_ID and everything below live there, and another program (or the
        // kernel's driver) may have left page 1 selected; PAGE_ID answers on both pages.
        try access.write(BNO055Register.pageID, 0, "selecting the BNO055's register page 0 (PAGE_ID)")
        // Nothing else at 0x28/0x29 in this project's registry reads 0xA0 at 0x00.
        try access.identify(register: BNO055Register.chipID, expected: [BNO055Register.identity])
        try checkComponents()
        let mode = try access.read(BNO055Register.operationMode, "reading the BNO055's operation mode (OPR_MODE)") & 0x0F
        if mode != BNO055Register.OperationMode.configuration.rawValue {
            try setMode(.configuration)
        }
        try access.write(BNO055Register.powerMode, 0, "setting the BNO055's normal power mode (PWR_MODE)")
        try access.write(BNO055Register.unitSelection, BNO055Register.driverUnitSelection, "selecting the BNO055's units (UNIT_SEL)")
        if let profile = profileToRestore {
            try writeProfile(profile)
        }
        try setMode(configuration.mode)
        lastSampleNanoseconds = nil
        lastFieldNanoseconds = nil
        latestFusion = nil
    }

    /// ACC_ID, MAG_ID, GYR_ID: a BNO055 whose sensor did not start reads another value there
    /// (the kernel's bno055 driver warns on the same check).
    private func checkComponents() throws(ChipError) {
        let names = ["BNO055 accelerometer (BMA280)", "BNO055 magnetometer (BMM150)", "BNO055 gyroscope (BMG160)"]
        for (index, expected) in BNO055Register.componentIdentities.enumerated() {
            let register = BNO055Register.chipID + 1 + UInt8(index)
            try access.identify(register: register, expected: [expected], family: names[index])
        }
    }

    private func setMode(_ mode: BNO055Register.OperationMode) throws(ChipError) {
        try access.write(BNO055Register.operationMode, mode.rawValue, "setting the BNO055's operation mode \(hex(mode.rawValue)) (OPR_MODE)")
        pause(mode == .configuration ? BNO055Register.toConfigurationNanoseconds : BNO055Register.fromConfigurationNanoseconds)
    }

    private func writeProfile(_ profile: BNO055CalibrationProfile) throws(ChipError) {
        var storage = (UInt64(0), UInt64(0), UInt64(0))  // 22 of 24 bytes
        try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) in
            for (index, byte) in profile.bytes.enumerated() { buffer[index] = byte }
            let values = UnsafeRawBufferPointer(rebasing: buffer[0..<BNO055Register.calibrationProfileLength])
            try access.attempt("writing the BNO055's calibration profile (0x55…0x6A)") { () throws(BusError) in
                try bus.writeRegisters(address: address, register: BNO055Register.calibrationProfile, values: values)
            }
        }
    }

    /// The profile the chip has learned (§3.11.4): into CONFIGMODE, the 22 bytes, and back to
    /// the configured mode. The outputs pause for the two switches (26 ms); save it when
    /// `latestFusion?.calibration.isFullyCalibrated`. A plausible one is also what a reset chip
    /// gets back from then on.
    public func readCalibrationProfile() throws(ChipError) -> BNO055CalibrationProfile {
        try setMode(.configuration)
        var storage = (UInt64(0), UInt64(0), UInt64(0))  // 22 of 24 bytes
        let bytes = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> [UInt8] in
            let profile = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<BNO055Register.calibrationProfileLength])
            try access.attempt("reading the BNO055's calibration profile (0x55…0x6A)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: BNO055Register.calibrationProfile, into: profile)
            }
            return Array(profile)
        }
        try setMode(configuration.mode)
        let profile = BNO055CalibrationProfile(bytes: bytes)
        if profile.isPlausible { profileToRestore = profile }
        return profile
    }

    /// The newest sample stamped `nowNanoseconds` (the field with every fifth), or nil when
    /// less than ¾ of a period passed since the last, the fusion has no output yet, or the chip
    /// was found reset and set up again.
    public func read(nowNanoseconds: Int64) throws(ChipError)
        -> (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)? {
        if let last = lastSampleNanoseconds, nowNanoseconds - last < samplePeriodNanoseconds * 3 / 4 { return nil }
        var storage = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))  // 54 of 56 bytes
        let mode = configuration.mode
        typealias Sample = (status: UInt8, error: UInt8, mode: UInt8, acceleration: Vector3, field: Vector3, rate: Vector3, fusion: Fusion?)
        let sample = try withUnsafeMutableBytes(of: &storage) { (buffer) throws(ChipError) -> Sample in
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Self.burstLength])
            try access.attempt("reading the BNO055 (0x08…0x3D)") { () throws(BusError) in
                try bus.readRegisters(address: address, register: BNO055Register.accelerometerData, into: bytes)
            }
            let data = UnsafeRawBufferPointer(bytes)
            func offset(_ register: UInt8) -> Int { Int(register - BNO055Register.accelerometerData) }
            func vector(at register: UInt8, perUnit denominator: Int64) -> Vector3 {
                let at = offset(register)
                func axis(_ index: Int) -> Q16_16 {
                    CountConversion.siValue(counts: CountConversion.littleEndian16(data, at: at + 2 * index), nanoUnitsPerLSB: 1, denominator: denominator)
                }
                return Vector3(x: axis(0), y: axis(1), z: axis(2))
            }
            let quaternionBytes = data[offset(BNO055Register.quaternionData)..<offset(BNO055Register.quaternionData) + 8]
            // A unit quaternion is never 0: all zero means the fusion has produced nothing yet.
            let fusion = mode != .nineDegreesOfFreedom || quaternionBytes.allSatisfy({ $0 == 0 }) ? nil
                : Fusion(attitude: BNO055Conversion.quaternion(data, at: offset(BNO055Register.quaternionData)),
                         calibration: BNO055CalibrationStatus(register: data[offset(BNO055Register.calibrationStatus)]),
                         temperature: BNO055Conversion.temperature(data[offset(BNO055Register.temperature)]),
                         timestampNanoseconds: nowNanoseconds)
            return (data[offset(BNO055Register.systemStatus)], data[offset(BNO055Register.systemError)],
                    data[offset(BNO055Register.operationMode)] & 0x0F,
                    CountConversion.littleEndianVector(data, at: 0, nanoUnitsPerLSB: BNO055Register.nanometresPerSecondSquaredPerCount),
                    vector(at: BNO055Register.magnetometerData, perUnit: BNO055Register.countsPerMicrotesla),
                    vector(at: BNO055Register.gyroscopeData, perUnit: BNO055Register.countsPerRadianPerSecond),
                    fusion)
        }
        if sample.status == 1 {
            throw .systemError(chip: "BNO055", bus: bus.name, address: address, code: sample.error, meaning: Self.meaning(ofSystemError: sample.error))
        }
        if sample.mode != mode.rawValue {
            try initialise()
            recoveries += 1
            return nil
        }
        if mode == .nineDegreesOfFreedom {
            guard let fusion = sample.fusion else { return nil }
            latestFusion = fusion
        }
        lastSampleNanoseconds = nowNanoseconds
        var field: SensorReading?
        if lastFieldNanoseconds.map({ nowNanoseconds - $0 >= magnetometerPeriodNanoseconds - samplePeriodNanoseconds / 2 }) ?? true {
            lastFieldNanoseconds = nowNanoseconds
            field = SensorReading(timestampNanoseconds: nowNanoseconds, value: .magneticField(sample.field))
        }
        return (SensorReading(timestampNanoseconds: nowNanoseconds, value: .acceleration(sample.acceleration)),
                SensorReading(timestampNanoseconds: nowNanoseconds, value: .angularVelocity(sample.rate)), field)
    }

    /// SYS_ERR's values (§4.3.59).
    static func meaning(ofSystemError code: UInt8) -> String {
        switch code {
        case 0x01: return "peripheral initialisation error"
        case 0x02: return "system initialisation error"
        case 0x03: return "self test result failed"
        case 0x04: return "register map value out of range"
        case 0x05: return "register map address out of range"
        case 0x06: return "register map write error"
        case 0x07: return "low power mode not available for the selected operation mode"
        case 0x08: return "accelerometer power mode not available"
        case 0x09: return "fusion algorithm configuration error"
        case 0x0A: return "sensor configuration error"
        default: return "an error code the datasheet does not list"
        }
    }
}
