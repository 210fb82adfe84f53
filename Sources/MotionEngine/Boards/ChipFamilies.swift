import Chips
import MotionAlgorithms
import SensorBus

/// The chips a board file may name (`driver = …`): for each, how to open its driver on a bus
/// and how to build its emulator for a simulated board. Adding a chip of an existing shape is
/// its folder in `Sources/Chips` plus one line here.
struct ChipFamily: Sendable {
    typealias Open = @Sendable (BoardBus, BoardDescription.Chip) throws(ChipError) -> any ChipReader
    typealias Emulate = @Sendable (BoardDescription.Chip, EmulatedSenses) -> Emulation

    let open: Open
    let emulate: Emulate
    /// What the family's emulator adds to what it feels when `noise = datasheet`.
    let noise: SensorNoise

    /// Every family by its board-file name.
    static let all: [String: ChipFamily] = [
        "mpu6050": ChipFamily(open: openMPU6050, emulate: { chip, senses in
            .inertial(MPU6050Emulator(address: chip.address, motion: senses.inertial))
        }, noise: SensorNoise(accelerometerDensity: 400e-6, gyroscopeDensity: 0.005, bandwidth: 44)),  // PS-MPU-6000A §6.1–6.2, DLPF 3
        // The MPU-9250 is an MPU-6500 with an AK8963 behind its I2C bypass: the same driver; its
        // twin answers WHO_AM_I 0x71 (the AK8963 is its own chip on the board).
        "mpu9250": ChipFamily(open: openMPU6050, emulate: { chip, senses in
            .inertial(MPU6050Emulator(address: chip.address, whoAmI: 0x71, motion: senses.inertial))
        }, noise: SensorNoise(accelerometerDensity: 300e-6, gyroscopeDensity: 0.01, bandwidth: 44)),  // PS-MPU-9250A §3.1–3.2
        // ICM-20948: accelerometer, gyroscope and its AK09916 in one driver (the field in the
        // accelerometer's axes, so one mount line). Noise: DS-000189 tables 1–2 (230 µg/√Hz,
        // 0.015 °/s/√Hz) at DLPFCFG 3's ≈ 51 Hz bandwidth; table 3's AK09916 gives none: 0.6 µT
        // assumed, as for the AK8963 (4 LSB at 0.15 µT).
        "icm20948": ChipFamily(open: { bus, chip throws(ChipError) in
            var configuration = ICM20948Driver<BoardBus>.Configuration()
            if let rate = chip.rateHertz { configuration.sampleRateHertz = rate }
            return PolledNineAxisReader(try ICM20948Driver(bus: bus, address: chip.address, configuration: configuration), label: chip.label)
        }, emulate: { chip, senses in
            .inertial(ICM20948Emulator(address: chip.address, motion: senses.inertial, field: senses.magneticField))
        }, noise: SensorNoise(accelerometerDensity: 230e-6, gyroscopeDensity: 0.015, bandwidth: 51, magneticField: 0.6)),
        // BNO085/BNO086: a sensor hub over SHTP; its calibrated accelerometer, gyroscope and field
        // (one section, one mount line; its rotation vectors, step counter and classifiers
        // passed on with `chip-fusion = on`, BNO08XReader; its emulator's step counter is the
        // motion source's count: `synthetic:walk`'s, none for a recording). The data sheet gives
        // no noise densities: the BMI160's accelerometer and the LSM6DSx's gyroscope figures at a
        // 50 Hz bandwidth and 0.3 µT for the field are this project's assumptions.
        "bno08x": ChipFamily(open: { bus, chip throws(ChipError) in
            var configuration = BNO08XDriver<BoardBus>.Configuration()
            if let rate = chip.rateHertz { configuration.sampleRateHertz = rate }
            return BNO08XReader(try BNO08XDriver(bus: bus, address: chip.address, configuration: configuration), label: chip.label)
        }, emulate: { chip, senses in
            .inertial(BNO08XEmulator(address: chip.address, motion: senses.inertial, field: senses.magneticField, steps: senses.steps))
        }, noise: SensorNoise(accelerometerDensity: 180e-6, gyroscopeDensity: 0.0038, bandwidth: 50, magneticField: 0.3)),
        // BNO055 in NDOF: its three sensors (offset-compensated by the chip's own background
        // calibration, §3.6.5.1–3) feed the engine's pipeline; the chip's quaternion and
        // CALIB_STAT are read with them (BNO055Driver.latestFusion) and passed on with
        // `chip-fusion = on`. The emulator's quaternion is the motion source's true attitude
        // (a synthetic trajectory's; level for a recording): the chip's fusion is not modelled.
        // `mode = amg` runs it in AMG instead: the same three sensors, uncalibrated, no fusion
        // (nothing learned, so no profile taken). Its stored profile is written back at start
        // (BNO055Reader saves it). Noise: BST-BNO055-DS000-14 §1.2 (accelerometer 150 µg/√Hz,
        // gyroscope 0.014 °/s/√Hz) at the fusion modes' fixed 32 Hz gyroscope bandwidth (an
        // assumption for both); the BMM150's field noise is not given there: 0.6 µT assumed, as
        // for the AK8963.
        "bno055": ChipFamily(open: { bus, chip throws(ChipError) in
            var configuration = BNO055Driver<BoardBus>.Configuration()
            configuration.mode = chip.mode == .amg ? .accelerometerMagnetometerGyroscope : .nineDegreesOfFreedom
            configuration.calibrationProfile = chip.storedProfile.flatMap { BNO055CalibrationProfile(values: $0) }
            return BNO055Reader(try BNO055Driver(bus: bus, address: chip.address, configuration: configuration), label: chip.label)
        }, emulate: { chip, senses in
            .inertial(BNO055Emulator(address: chip.address, motion: senses.inertial, field: senses.magneticField, attitude: senses.attitude))
        }, noise: SensorNoise(accelerometerDensity: 150e-6, gyroscopeDensity: 0.014, bandwidth: 32, magneticField: 0.6)),
        "bmi160": ChipFamily(open: { bus, chip throws(ChipError) in
            FIFOReader(try BMI160Driver(bus: bus, address: chip.address, sampleRateHertz: chip.rateHertz ?? 100), label: chip.label)
        }, emulate: { chip, senses in .inertial(BMI160Emulator(address: chip.address, motion: senses.inertial)) },
           noise: SensorNoise(accelerometerDensity: 180e-6, gyroscopeDensity: 0.007, bandwidth: 40.5)),  // BST-BMI160-DS000 table 1, normal filter at 100 Hz
        "lsm6dsx": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledInertialReader(try LSM6DSXDriver(bus: bus, address: chip.address, rateHertz: chip.rateHertz ?? 104), label: chip.label)
        }, emulate: { chip, senses in .inertial(LSM6DSXEmulator(address: chip.address, motion: senses.inertial)) },
           noise: SensorNoise(accelerometerDensity: 70e-6, gyroscopeDensity: 0.0038, bandwidth: 52)),  // DS12814 table 3, ODR / 2
        // The same chips read through their tagged FIFO (LSM6DSO/LSM6DSOX, ISM330DHCX, LSM6DSV16X;
        // the LSM6DS3/DS3TR-C's untagged one is `lsm6ds3-fifo`'s). `lsm6dsx-fifo` is emulated as
        // an LSM6DSOX, `lsm6dsv16x` as an LSM6DSV16X (WHO_AM_I 0x70, its own register map); on
        // a real bus both open whichever tagged-FIFO variant answers. The LSM6DSV16X's noise:
        // the LSM6DSOX's figures assumed (its datasheet's table to be read in).
        "lsm6dsx-fifo": ChipFamily(open: openLSM6DSXFIFO, emulate: { chip, senses in
            .inertial(LSM6DSXEmulator(address: chip.address, motion: senses.inertial))
        }, noise: SensorNoise(accelerometerDensity: 70e-6, gyroscopeDensity: 0.0038, bandwidth: 52)),
        "lsm6dsv16x": ChipFamily(open: openLSM6DSXFIFO, emulate: { chip, senses in
            .inertial(LSM6DSXEmulator(address: chip.address, whoAmI: 0x70, motion: senses.inertial))
        }, noise: SensorNoise(accelerometerDensity: 70e-6, gyroscopeDensity: 0.0038, bandwidth: 60)),
        // The LSM6DS3 / LSM6DS3TR-C through their pattern FIFO, emulated as an LSM6DS3TR-C
        // (WHO_AM_I 0x6A); on a real bus either opens. Noise: 90 µg/√Hz and 7 mdps/√Hz at
        // ODR / 2, the LSM6DS3 figures the LSM9DS1 row below borrows (an assumption: the
        // LSM6DS3TR-C datasheet's own table is still to be read in).
        "lsm6ds3-fifo": ChipFamily(open: { bus, chip throws(ChipError) in
            FIFOReader(try LSM6DS3FIFODriver(bus: bus, address: chip.address, rateHertz: chip.rateHertz ?? 100), label: chip.label)
        }, emulate: { chip, senses in .inertial(LSM6DSXEmulator(address: chip.address, whoAmI: 0x6A, motion: senses.inertial)) },
           noise: SensorNoise(accelerometerDensity: 90e-6, gyroscopeDensity: 0.007, bandwidth: 52)),
        // The LSM9DS1 datasheet gives no noise densities: the LSM6DS3's (90 µg/√Hz, 7 mdps/√Hz),
        // an assumption of this project, at the 59.5 Hz rate's 19 Hz bandwidth.
        "lsm9ds1": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledInertialReader(try LSM9DS1InertialDriver(bus: bus, address: chip.address, rateField: lsm9ds1RateField(chip.rateHertz)),
                                 label: chip.label)
        }, emulate: { chip, senses in .inertial(LSM9DS1Emulator(inertialAddress: chip.address, motion: senses.all)) },
           noise: SensorNoise(accelerometerDensity: 90e-6, gyroscopeDensity: 0.007, bandwidth: 19)),
        // Magnetometer RMS noise: LIS3MDL 3.2 mG in ultra-high-performance mode (DocID024204
        // table 2); the LSM9DS1 and AK8963 datasheets give none: 0.6 µT assumed (4 LSB of the
        // AK8963).
        "lsm9ds1-magnetometer": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try LSM9DS1MagnetometerDriver(bus: bus, address: chip.address, variant: .lsm9ds1), label: chip.label)
        }, emulate: { chip, senses in .inertial(LSM9DS1Emulator(magnetometerAddress: chip.address, motion: senses.all)) },
           noise: SensorNoise(magneticField: 0.6)),
        "lis3mdl": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try LSM9DS1MagnetometerDriver(bus: bus, address: chip.address, variant: .lis3mdl), label: chip.label)
        }, emulate: { chip, senses in .inertial(LSM9DS1Emulator(magnetometerAddress: chip.address, isLIS3MDL: true, motion: senses.all)) },
           noise: SensorNoise(magneticField: 0.32)),
        "ak8963": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try AK8963Driver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .inertial(AK8963Emulator(address: chip.address, field: senses.magneticField)) },
           noise: SensorNoise(magneticField: 0.6)),
        // QMC5883L: 2 mG RMS (0.2 µT) field resolution (QMC5883L datasheet rev 1.0, table 2).
        // HMC5883L: 2 mG noise floor (Honeywell HMC5883L datasheet, specifications).
        "qmc5883l": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try QMC5883LDriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .inertial(QMC5883LEmulator(address: chip.address, field: senses.magneticField)) },
           noise: SensorNoise(magneticField: 0.2)),
        "hmc5883l": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try HMC5883LDriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .inertial(HMC5883LEmulator(address: chip.address, field: senses.magneticField)) },
           noise: SensorNoise(magneticField: 0.2)),
        // LIS2MDL: about 3 mG RMS (DS12144 table 2, high-resolution mode, offset cancellation on).
        // MMC5983MA: 0.4 mG RMS at BW 100 Hz (its datasheet); the driver's BW 200 Hz is noisier and
        // its SET/RESET half-difference averages two measurements: 0.6 mG assumed.
        "lis2mdl": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try LIS2MDLDriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .inertial(LIS2MDLEmulator(address: chip.address, field: senses.magneticField)) },
           noise: SensorNoise(magneticField: 0.3)),
        "mmc5983ma": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try MMC5983MADriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .inertial(MMC5983MAEmulator(address: chip.address, field: senses.magneticField)) },
           noise: SensorNoise(magneticField: 0.06)),
        // BMP388/BMP390 at ×8 pressure oversampling with IIR 3: 0.5 Pa RMS, an assumption of
        // this project (between the datasheet's figures for ×1 and ×32).
        "bmp388": ChipFamily(open: { bus, chip throws(ChipError) in
            BarometerReader(try BMP388Driver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .barometer(BMP388Emulator(address: chip.address), senses) },
           noise: SensorNoise(pressure: 0.5)),
        // Pressure RMS noise: BMP280 1.3 Pa at ×16 oversampling (BST-BMP280-DS001 table 3);
        // LPS25H 0.01 hPa in its high-resolution mode (DocID023722 table 3).
        "bmp280": ChipFamily(open: { bus, chip throws(ChipError) in
            BarometerReader(try BMP280Driver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .barometer(BMP280Emulator(address: chip.address), senses) },
           noise: SensorNoise(pressure: 1.3)),
        "lps25h": ChipFamily(open: { bus, chip throws(ChipError) in
            BarometerReader(try LPS25HDriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, senses in .barometer(LPS25HEmulator(address: chip.address), senses) },
           noise: SensorNoise(pressure: 1.0)),
        // Depth sensors. Pressure RMS noise at OSR 8192: 0.2 mbar for the 30BA (its datasheet's
        // "high-resolution module 0.2 mbar"), 0.016 mbar for the 02BA (its resolution table).
        "ms5837-30ba": ms5837(.bar30, noise: 20),
        "ms5837-02ba": ms5837(.bar02, noise: 1.6),
    ]

    /// The sensors each family gives (a chip's section may give part of them: an IIO device
    /// is one of the kernel's `…_accel`, `…_gyro`, `…_magn` devices).
    static let channels: [String: Set<SensorChannel>] = [
        "mpu6050": [.accelerometer, .gyroscope],
        "mpu9250": [.accelerometer, .gyroscope],  // its AK8963 is its own chip (ak8963)
        "icm20948": [.accelerometer, .gyroscope, .magnetometer],
        "bno08x": [.accelerometer, .gyroscope, .magnetometer],
        "bno08x-rvc": [.accelerometer],  // UART-RVC: acceleration and the hub's attitude only
        "bno055": [.accelerometer, .gyroscope, .magnetometer],
        "bmi160": [.accelerometer, .gyroscope],
        "lsm6dsx": [.accelerometer, .gyroscope],
        "lsm6dsx-fifo": [.accelerometer, .gyroscope],
        "lsm6dsv16x": [.accelerometer, .gyroscope],
        "lsm6ds3-fifo": [.accelerometer, .gyroscope],
        "lsm9ds1": [.accelerometer, .gyroscope],
        "lsm9ds1-magnetometer": [.magnetometer],
        "lis3mdl": [.magnetometer],
        "ak8963": [.magnetometer],
        "qmc5883l": [.magnetometer],
        "hmc5883l": [.magnetometer],
        "lis2mdl": [.magnetometer],
        "mmc5983ma": [.magnetometer],
        "bmp388": [.barometer, .thermometer],
        "bmp280": [.barometer, .thermometer],
        "lps25h": [.barometer, .thermometer],
        "ms5837-30ba": [.barometer, .thermometer],
        "ms5837-02ba": [.barometer, .thermometer],
    ]

    /// An MS5837 variant: its driver, and its emulator feeling the motion source's pressure
    /// and water temperature.
    private static func ms5837(_ variant: MS5837Variant, noise pascals: Double) -> ChipFamily {
        ChipFamily(open: { bus, chip throws(ChipError) in
            BarometerReader(try MS5837Driver(bus: bus, address: chip.address, variant: variant), label: chip.label)
        }, emulate: { chip, senses in .barometer(MS5837Emulator(address: chip.address, variant: variant), senses) },
           noise: SensorNoise(pressure: pascals))
    }

    /// The LSM9DS1's ODR_G field nearest `rate` Hz (14.9 … 952 Hz, DocID025715 table 46); 59.5 Hz
    /// (field 2) when the board file gives none.
    private static func lsm9ds1RateField(_ rate: Int?) -> UInt8 {
        guard let rate else { return 2 }
        let rates = LSM9DS1Table.inertialRatesMilliHertz
        let best = (1..<rates.count).min { abs(Int64(rates[$0]) - Int64(rate) * 1000) < abs(Int64(rates[$1]) - Int64(rate) * 1000) }!
        return UInt8(best)
    }

    private static let openMPU6050: Open = { bus, chip throws(ChipError) in
        var configuration = MPU6050Driver<BoardBus>.Configuration()
        if let rate = chip.rateHertz { configuration.sampleRateHertz = rate }
        return FIFOReader(try MPU6050Driver(bus: bus, address: chip.address, configuration: configuration), label: chip.label)
    }

    /// 100 Hz without a `rate` line, like the other FIFO families (the nearest ODR: 104 Hz on
    /// the LSM6DSO map, 120 Hz on the LSM6DSV16X's).
    private static let openLSM6DSXFIFO: Open = { bus, chip throws(ChipError) in
        FIFOReader(try LSM6DSXFIFODriver(bus: bus, address: chip.address, rateHertz: chip.rateHertz ?? 100), label: chip.label)
    }
}

/// A family's measurement noise: RMS per axis in SI units (m/s², rad/s, µT, Pa).
struct SensorNoise: Sendable {
    var acceleration = 0.0, angularVelocity = 0.0, magneticField = 0.0, pressure = 0.0

    init(magneticField: Double = 0, pressure: Double = 0) {
        self.magneticField = magneticField
        self.pressure = pressure
    }

    /// From datasheet noise densities (accelerometer in g/√Hz, gyroscope in °/s/√Hz) over the
    /// configured bandwidth in Hz: RMS = density × √bandwidth.
    init(accelerometerDensity: Double, gyroscopeDensity: Double, bandwidth: Double, magneticField: Double = 0) {
        acceleration = accelerometerDensity * 9.80665 * bandwidth.squareRoot()
        angularVelocity = gyroscopeDensity * .pi / 180 * bandwidth.squareRoot()
        self.magneticField = magneticField
    }
}

/// What an emulated chip feels at a board time, in its own axes (the inverse of its mounting),
/// with its family's noise: the recording's motion, or at rest face up in a mid-latitude field
/// (19 µT north, 46 µT down) at sea-level pressure. Noise is seeded by the chip's address, so
/// runs repeat exactly.
final class EmulatedSenses {
    private let motion: (any MotionSource)?
    private let mount: BoardDescription.AxisMapping
    private var accelerometerNoise, gyroscopeNoise, magnetometerNoise, barometerNoise: EmulatedNoise
    private let hardIron: (Double, Double, Double)
    /// The mount's rotation (nil: identity or mirroring), for `attitude`.
    private let mountRotation: (w: Double, x: Double, y: Double, z: Double)?

    init(motion: (any MotionSource)?, chip: BoardDescription.Chip, noise: SensorNoise) {
        self.motion = motion
        mount = chip.mount
        mountRotation = chip.mount == .identity ? nil
            : chip.mount.rotation.map { ($0.w.doubleValue, $0.x.doubleValue, $0.y.doubleValue, $0.z.doubleValue) }
        let offset = chip.emulatedHardIron ?? [0, 0, 0]
        hardIron = (offset[0], offset[1], offset[2])
        let scale = chip.emulatedNoise ? 1.0 : 0.0
        let seed = UInt64(chip.address) &* 0x1_0000_0001 &+ 1
        accelerometerNoise = EmulatedNoise(rms: noise.acceleration * scale, seed: seed)
        gyroscopeNoise = EmulatedNoise(rms: noise.angularVelocity * scale, seed: seed &+ 1)
        magnetometerNoise = EmulatedNoise(rms: noise.magneticField * scale, seed: seed &+ 2)
        barometerNoise = EmulatedNoise(rms: noise.pressure * scale, seed: seed &+ 3)
    }

    private func advance(_ nanoseconds: Int64) { motion?.advance(to: nanoseconds) }

    /// Specific force (m/s²) and angular velocity (rad/s).
    func inertial(_ nanoseconds: Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double)) {
        advance(nanoseconds)
        return (mount.chipAxes(accelerometerNoise.add(to: motion?.acceleration ?? (0, 0, 9.80665))),
                mount.chipAxes(gyroscopeNoise.add(to: motion?.angularVelocity ?? (0, 0, 0))))
    }

    /// Magnetic field, µT, with the chip's hard-iron offset.
    func magneticField(_ nanoseconds: Int64) -> (Double, Double, Double) {
        advance(nanoseconds)
        let field = mount.chipAxes(magnetometerNoise.add(to: motion?.magneticField ?? (19, 0, -46)))
        return (field.0 + hardIron.0, field.1 + hardIron.1, field.2 + hardIron.2)
    }

    /// All three, for the LSM9DS1's shared emulator.
    func all(_ nanoseconds: Int64) -> ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double)) {
        let (acceleration, angularVelocity) = inertial(nanoseconds)
        return (acceleration, angularVelocity, magneticField(nanoseconds))
    }

    /// Static pressure, Pa.
    func pressure(_ nanoseconds: Int64) -> Double {
        advance(nanoseconds)
        return (motion?.pressure ?? 101_325) + barometerNoise.next()
    }

    /// The source's true attitude (where it has one: a synthetic trajectory) in chip axes:
    /// chip axes → world (x north, y west, z up) as (w, x, y, z); level (the identity) without
    /// one. Device = M · chip, so the chip's is the device's ⊗ m (m: the mount's rotation).
    func attitude(_ nanoseconds: Int64) -> (Double, Double, Double, Double) {
        advance(nanoseconds)
        guard let q = motion?.attitude else { return (1, 0, 0, 0) }
        guard let m = mountRotation else { return (q.w, q.x, q.y, q.z) }
        return (q.w * m.w - q.x * m.x - q.y * m.y - q.z * m.z, q.w * m.x + q.x * m.w + q.y * m.z - q.z * m.y,
                q.w * m.y - q.x * m.z + q.y * m.w + q.z * m.x, q.w * m.z + q.x * m.y - q.y * m.x + q.z * m.w)
    }

    /// Steps walked, for a chip that counts them itself (BNO08x): the source's, 0 without them.
    func steps(_ nanoseconds: Int64) -> Int {
        advance(nanoseconds)
        return motion?.steps ?? 0
    }

    /// The surroundings' temperature, °C, if the motion source gives one.
    func temperature(_ nanoseconds: Int64) -> Double? {
        advance(nanoseconds)
        return motion?.temperature
    }
}

extension BoardDescription.AxisMapping {
    /// A device-axes vector (what the recording measured) in the chip's axes: the inverse of
    /// the mounting, so that a simulated chip mounted turned still reads the recorded motion
    /// once the runtime applies `mount`. Device axis i = sign × chip axis index, hence
    /// chip axis index = sign × device axis i.
    func chipAxes(_ device: (Double, Double, Double)) -> (Double, Double, Double) {
        func component(_ axis: Int) -> Double { axis == 0 ? device.0 : axis == 1 ? device.1 : device.2 }
        var chip = (0.0, 0.0, 0.0)
        for deviceAxis in 0..<3 {
            let (index, sign) = axes[deviceAxis]
            let value = Double(sign) * component(deviceAxis)
            switch index {
            case 0: chip.0 = value
            case 1: chip.1 = value
            default: chip.2 = value
            }
        }
        return chip
    }
}

/// A simulated chip: the emulator the driver talks to, and how the runtime runs its clock.
struct Emulation {
    /// The emulator as the driver's bus (nil for a chip on a UART).
    let bus: (any I2CBus)?
    /// The emulator as a chip with a clock and an interrupt pin.
    let chip: any EmulatedChip
    /// Runs the emulator to a board time, first giving it what it must feel then (a
    /// barometer's pressure from the recording).
    let advance: (Int64) -> Void

    /// A UART chip's emulator: no bus, its bytes read through `BoardSerialLine`.
    static func stream(_ emulator: BNO08XRVCEmulator) -> Emulation {
        Emulation(bus: nil, chip: emulator, advance: { emulator.advance(to: $0) })
    }

    /// An emulator whose motion source feeds itself.
    static func inertial(_ emulator: some I2CBus & EmulatedChip) -> Emulation {
        Emulation(bus: emulator, chip: emulator, advance: { emulator.advance(to: $0) })
    }

    /// A barometer emulator given what it feels before each advance.
    static func barometer(_ emulator: some EmulatedBarometer, _ senses: EmulatedSenses) -> Emulation {
        Emulation(bus: emulator, chip: emulator, advance: { time in
            emulator.pressurePascals = senses.pressure(time)
            if let celsius = senses.temperature(time) { emulator.temperatureCelsius = celsius }
            emulator.advance(to: time)
        })
    }
}
