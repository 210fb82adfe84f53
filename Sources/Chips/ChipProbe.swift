public import SensorBus

/// Finds which known chips answer on a bus: at each family's possible addresses, reads its
/// identity register and matches the datasheet values. Read-only: nothing is configured.
public enum ChipProbe {
    public struct Candidate: Sendable {
        /// The board-file driver name.
        public var driver: String
        public var addresses: [UInt8]
        public var identityRegister: UInt8
        /// Identity value → chip name.
        public var identities: [(value: UInt8, name: String)]
    }

    /// Every family this version drives (the registry: adding a chip adds a row here).
    public static let candidates: [Candidate] = [
        Candidate(driver: "mpu6050", addresses: MPU6050Table.addresses, identityRegister: MPU6050Register.whoAmI,
                  identities: MPU6050Table.variants.map { ($0.whoAmI, $0.name) }),
        // BMI160 and MPU-6050 share 0x68/0x69: each is told apart by its own identity register.
        Candidate(driver: "bmi160", addresses: BMI160Table.addresses, identityRegister: BMI160Register.chipID,
                  identities: [(BMI160Register.identity, "BMI160")]),
        // ICM-20948: WHO_AM_I 0xEA at bank 0's 0x00 (DS-000189 §8). Asked after the MPU (WHO_AM_I
        // at 0x75: on an ICM-20948 a reserved register) and the BMI160 (CHIP_ID 0xD1 at 0x00),
        // so an MPU-9250 whose 0x00 (SELF_TEST_X_GYRO, a factory trim) happens to read 0xEA is
        // still named by its own WHO_AM_I. Read-only: an ICM-20948 left in another bank by a
        // program (REG_BANK_SEL is not reset by a new open) reads another register at 0x00 and
        // is not named; its driver selects bank 0 before it identifies the chip.
        Candidate(driver: "icm20948", addresses: ICM20948Register.addresses, identityRegister: ICM20948Register.whoAmI.address,
                  identities: [(ICM20948Register.identity, "ICM-20948 (with its AK09916 magnetometer)")]),
        // BNO055: CHIP_ID 0xA0 at 0x00 on page 0 (BST-BNO055-DS000-14 §4.3.1), at 0x28 or 0x29.
        // No other chip of this registry answers there; a stranger at those addresses (a
        // VL53L0X or TSL2591 at 0x29) reads something else at 0x00 and is not named. Read-only:
        // a BNO055 left on register page 1 by a program (PAGE_ID survives until a reset) reads
        // a reserved register at 0x00 and is not named; its driver selects page 0 first.
        Candidate(driver: "bno055", addresses: BNO055Register.addresses, identityRegister: BNO055Register.chipID,
                  identities: [(BNO055Register.identity, "BNO055 (with its own fusion)")]),
        Candidate(driver: "lsm9ds1", addresses: [0x6A, 0x6B], identityRegister: LSM9DS1Register.whoAmI,
                  identities: [(LSM9DS1Register.inertialIdentity, "LSM9DS1 accelerometer/gyroscope")]),
        Candidate(driver: "lsm6dsx", addresses: LSM6DSXTable.addresses, identityRegister: LSM6DSXRegister.whoAmI,
                  identities: LSM6DSXTable.variants.filter { $0.map != .lsm6dsv16x }.map { ($0.whoAmI, $0.name) }),
        // The LSM6DSV16X (WHO_AM_I 0x70 at 0x0F, like the others) gets its own family, read
        // through its tagged FIFO; the LSM6DSO/DSOX/ISM330DHCX stay `lsm6dsx` (polled), which
        // `lsm6dsx-fifo` replaces by hand.
        Candidate(driver: "lsm6dsv16x", addresses: LSM6DSXTable.addresses, identityRegister: LSM6DSXRegister.whoAmI,
                  identities: LSM6DSXTable.variants.filter { $0.map == .lsm6dsv16x }.map { ($0.whoAmI, $0.name) }),
        // The LIS3MDL answers exactly like the LSM9DS1's magnetometer (0x3D): the board file
        // must say which (driver lis3mdl for a stand-alone LIS3MDL).
        Candidate(driver: "lsm9ds1-magnetometer", addresses: [0x1C, 0x1E], identityRegister: LSM9DS1Register.whoAmI,
                  identities: [(LSM9DS1Register.magnetometerIdentity, "LSM9DS1 magnetometer or LIS3MDL")]),
        // The LIS2MDL (and the LSM303AGR's magnetometer, the same die) at 0x1E, where an HMC5883L
        // or a LIS3MDL may answer too: WHO_AM_I 0x40 at 0x4F (DS12144 §8.1); the HMC5883L has no
        // register there (reads 0), the LIS3MDL keeps its 0x3D at 0x0F (the candidate above).
        Candidate(driver: "lis2mdl", addresses: [LIS2MDLRegister.address], identityRegister: LIS2MDLRegister.whoAmI,
                  identities: [(LIS2MDLRegister.identity, "LIS2MDL (or LSM303AGR magnetometer)")]),
        // MMC5983MA: product ID 0x30 at 0x2F (MMC5983MA datasheet, register map).
        Candidate(driver: "mmc5983ma", addresses: [MMC5983MARegister.address], identityRegister: MMC5983MARegister.productID,
                  identities: [(MMC5983MARegister.identity, "MMC5983MA")]),
        Candidate(driver: "ak8963", addresses: [AK8963Register.address], identityRegister: AK8963Register.deviceID,
                  identities: [(AK8963Register.identity, "AK8963 (MPU-9250 magnetometer, bypass on)")]),
        // GY-271 boards sold as "HMC5883L" mostly carry a QMC5883L: it answers at 0x0D, chip ID
        // 0xFF (QMC5883L datasheet rev 1.0, register 0x0D). The Honeywell HMC5883L, at 0x1E, is
        // told by its three identification bytes ('H43'), in `probeHMC5883L`.
        Candidate(driver: "qmc5883l", addresses: [QMC5883LRegister.address], identityRegister: QMC5883LRegister.chipID,
                  identities: [(QMC5883LRegister.identity, "QMC5883L (GY-271; often sold as HMC5883L)")]),
        Candidate(driver: "bmp280", addresses: BMP280Table.addresses, identityRegister: BMP280Register.id,
                  identities: BMP280Table.variants.map { ($0.chipID, $0.name) }),
        Candidate(driver: "lps25h", addresses: LPS25HRegister.addresses, identityRegister: LPS25HRegister.whoAmI,
                  identities: [(LPS25HRegister.identity, "LPS25H")]),
    ]

    /// Families probed after the MS5837's PROM: the BMP388/BMP390 keeps its CHIP_ID at 0x00,
    /// which on an MS5837 (also at 0x76) is the ADC-read command, so it is read only where
    /// neither a BMP280/BME280 (id at 0xD0) nor an MS5837 answered. A BMP280's 0x00 and a
    /// BMP388's 0xD0 (beyond its map) are not ids: each family is named by its own register.
    public static let lateCandidates: [Candidate] = [
        Candidate(driver: "bmp388", addresses: BMP388Register.addresses, identityRegister: BMP388Register.chipID,
                  identities: BMP388Register.variants.map { ($0.chipID, $0.name) }),
    ]

    public struct Finding: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            /// A known chip answered with its identity.
            case identified(driver: String, chip: String)
            /// A kernel driver owns the address (EBUSY): use the chip's IIO device instead.
            case ownedByKernelDriver
        }

        public var address: UInt8
        public var outcome: Outcome

        public init(address: UInt8, outcome: Outcome) {
            self.address = address
            self.outcome = outcome
        }
    }

    /// What answers on `bus`, by address. A NACK (nobody there) or an unknown identity is
    /// skipped; other bus errors are thrown (a broken bus should not look empty).
    public static func probe(_ bus: some I2CBus) throws(BusError) -> [Finding] {
        var findings: [Finding] = []
        try probe(candidates, on: bus, into: &findings)
        if !findings.contains(where: { $0.address == HMC5883LRegister.address }), try probeHMC5883L(bus) {
            findings.append(Finding(address: HMC5883LRegister.address, outcome: .identified(driver: "hmc5883l", chip: "HMC5883L (Honeywell)")))
        }
        if !findings.contains(where: { $0.address == MS5837Command.address }), let chip = try probeMS5837(bus) {
            findings.append(Finding(address: MS5837Command.address, outcome: .identified(driver: chip.driver, chip: chip.name)))
        }
        try probe(lateCandidates, on: bus, into: &findings)
        for address in BNO08XTable.addresses where !findings.contains(where: { $0.address == address }) {
            if try probeBNO08X(bus, at: address) {
                findings.append(Finding(address: address, outcome: .identified(driver: "bno08x", chip: "BNO08x (BNO085/BNO086) sensor hub, SHTP")))
            }
        }
        return findings.sorted { $0.address < $1.address }
    }

    /// Reads each candidate's identity register at each of its addresses not yet claimed.
    private static func probe(_ candidates: [Candidate], on bus: some I2CBus, into findings: inout [Finding]) throws(BusError) {
        for candidate in candidates {
            for address in candidate.addresses where !findings.contains(where: { $0.address == address }) {
                let identity: UInt8
                do {
                    identity = try bus.readRegister(address: address, register: candidate.identityRegister)
                } catch {
                    switch error.kind {
                    case .noAcknowledge: continue
                    case .busy:
                        findings.append(Finding(address: address, outcome: .ownedByKernelDriver))
                        continue
                    default: throw error
                    }
                }
                if let match = candidate.identities.first(where: { $0.value == identity }) {
                    findings.append(Finding(address: address, outcome: .identified(driver: candidate.driver, chip: match.name)))
                }
            }
        }
    }

    /// Whether an HMC5883L answers at 0x1E: its identification registers A, B, C (0x0A…0x0C)
    /// read 'H', '4', '3' (HMC5883L datasheet). One byte would not do: 'H' (0x48) is a common
    /// register value. Runs after the LSM9DS1 magnetometer/LIS3MDL candidate, which shares 0x1E.
    private static func probeHMC5883L(_ bus: some I2CBus) throws(BusError) -> Bool {
        var identity = (UInt8(0), UInt8(0), UInt8(0))
        do {
            try withUnsafeMutableBytes(of: &identity) { (buffer) throws(BusError) in
                try bus.readRegisters(address: HMC5883LRegister.address, register: HMC5883LRegister.identification, into: buffer)
            }
        } catch {
            if error.kind == .noAcknowledge { return false }
            throw error
        }
        return identity == HMC5883LRegister.identity
    }

    /// The MS5837 has no identity register: it is recognised by a PROM (0xA0…0xAC) that is not
    /// blank and passes its CRC-4, and told 30BA or 02BA by the product version in word 0.
    /// Reading the PROM starts nothing on the chip. Nil when nothing or something else answers.
    private static func probeMS5837(_ bus: some I2CBus) throws(BusError) -> (driver: String, name: String)? {
        var words: [UInt16] = []
        for index in 0..<MS5837Command.promWords {
            var word: (UInt8, UInt8) = (0, 0)
            do {
                try withUnsafeMutableBytes(of: &word) { (buffer) throws(BusError) in
                    try bus.readRegisters(address: MS5837Command.address, register: MS5837Command.promRead + UInt8(2 * index), into: buffer)
                }
            } catch {
                if error.kind == .noAcknowledge { return nil }
                throw error
            }
            words.append(UInt16(word.0) << 8 | UInt16(word.1))
        }
        let prom = MS5837Calibration(words: words)
        guard !prom.isBlank, prom.isCRCValid else { return nil }
        guard let variant = MS5837Variant.of(version: prom.version) else {
            return ("ms5837-30ba", "MS5837 (unknown version \(hex(prom.version)): set ms5837-30ba or ms5837-02ba)")
        }
        return (variant.driver, variant.name)
    }

    /// The BNO08x has no identity register: it speaks SHTP packets. A plain read of its header
    /// takes nothing off the hub; only if that transfer is SHTP-shaped (a quiet hub's empty
    /// header, or a whole packet on channels 0…5) is a Product ID Request written, and the
    /// answer (0xF8 on the control channel) looked for in the next 16 transfers. This is the
    /// probe's one write: 0x4A/0x4B are also an ADS1x15 ADC's third and fourth addresses, and an
    /// ADS1x15 whose conversion register reads as an empty header would take the request's
    /// bytes into its Lo_thresh register (harmless to its conversions; a board file avoids it).
    private static func probeBNO08X(_ bus: some I2CBus, at address: UInt8) throws(BusError) -> Bool {
        let transport = SHTPTransport(bus: bus, address: address)
        /// nil: nobody there, or a transfer that is not SHTP.
        func next() throws(BusError) -> SHTPReceived? {
            do {
                let received = try transport.receive()
                if case .dropped = received { return nil }
                return received
            } catch {
                guard case .bus(let busError) = error else { return nil }
                if busError.kind == .noAcknowledge || busError.kind == .notSupported { return nil }
                throw busError
            }
        }
        guard try next() != nil else { return false }
        do {
            try transport.send(channel: SHTPChannel.control, cargo: SH2ProductID.request, "asking for the BNO08x's product ID while probing")
        } catch {
            guard case .bus(let busError) = error, busError.kind != .noAcknowledge else { return false }
            throw busError
        }
        for _ in 0..<16 {
            guard let received = try next() else { return false }
            if case .packet(let header) = received, header.channel == SHTPChannel.control,
               transport.withCargo({ SH2ProductID($0) }) != nil {
                return true
            }
        }
        return false
    }
}
