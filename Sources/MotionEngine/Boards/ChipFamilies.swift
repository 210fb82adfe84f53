import Chips
import SensorBus

/// The chips a board file may name (`driver = …`): for each, how to open its driver on a bus
/// and how to build its emulator for a simulated board. Adding a chip of an existing shape is
/// its folder in `Sources/Chips` plus one line here.
struct ChipFamily: Sendable {
    typealias Open = @Sendable (BoardBus, BoardDescription.Chip) throws(ChipError) -> any ChipReader
    typealias Emulate = @Sendable (BoardDescription.Chip, RecordedMotion?) -> Emulation

    let open: Open
    let emulate: Emulate

    /// Every family by its board-file name.
    static let all: [String: ChipFamily] = [
        "mpu6050": ChipFamily(open: openMPU6050, emulate: { chip, motion in .inertial(MPU6050Emulator(address: chip.address, motion: inertialMotion(motion, chip.mount))) }),
        // The MPU-9250 is an MPU-6500 with an AK8963 behind its I2C bypass: the same driver; its
        // twin answers WHO_AM_I 0x71 (the AK8963 is its own chip on the board).
        "mpu9250": ChipFamily(open: openMPU6050, emulate: { chip, motion in .inertial(MPU6050Emulator(address: chip.address, whoAmI: 0x71, motion: inertialMotion(motion, chip.mount))) }),
        "bmi160": ChipFamily(open: { bus, chip throws(ChipError) in
            FIFOReader(try BMI160Driver(bus: bus, address: chip.address, sampleRateHertz: chip.rateHertz ?? 100), label: chip.label)
        }, emulate: { chip, motion in .inertial(BMI160Emulator(address: chip.address, motion: inertialMotion(motion, chip.mount))) }),
        "lsm6dsx": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledInertialReader(try LSM6DSXDriver(bus: bus, address: chip.address, rateHertz: chip.rateHertz ?? 104), label: chip.label)
        }, emulate: { chip, motion in .inertial(LSM6DSXEmulator(address: chip.address, motion: inertialMotion(motion, chip.mount))) }),
        "lsm9ds1": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledInertialReader(try LSM9DS1InertialDriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, motion in .inertial(LSM9DS1Emulator(inertialAddress: chip.address, motion: lsm9ds1Motion(motion, chip.mount))) }),
        "lsm9ds1-magnetometer": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try LSM9DS1MagnetometerDriver(bus: bus, address: chip.address, variant: .lsm9ds1), label: chip.label)
        }, emulate: { chip, motion in .inertial(LSM9DS1Emulator(magnetometerAddress: chip.address, motion: lsm9ds1Motion(motion, chip.mount))) }),
        "lis3mdl": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try LSM9DS1MagnetometerDriver(bus: bus, address: chip.address, variant: .lis3mdl), label: chip.label)
        }, emulate: { chip, motion in .inertial(LSM9DS1Emulator(magnetometerAddress: chip.address, isLIS3MDL: true, motion: lsm9ds1Motion(motion, chip.mount))) }),
        "ak8963": ChipFamily(open: { bus, chip throws(ChipError) in
            PolledMagnetometerReader(try AK8963Driver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, motion in
            .inertial(AK8963Emulator(address: chip.address, field: { nanoseconds in
                guard let motion else { return chip.mount.chipAxes((19, 0, -46)) }
                motion.advance(to: nanoseconds)
                return chip.mount.chipAxes(motion.magneticField)
            }))
        }),
        "bmp280": ChipFamily(open: { bus, chip throws(ChipError) in
            BarometerReader(try BMP280Driver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, motion in .barometer(BMP280Emulator(address: chip.address), motion) }),
        "lps25h": ChipFamily(open: { bus, chip throws(ChipError) in
            BarometerReader(try LPS25HDriver(bus: bus, address: chip.address), label: chip.label)
        }, emulate: { chip, motion in .barometer(LPS25HEmulator(address: chip.address), motion) }),
    ]

    private static let openMPU6050: Open = { bus, chip throws(ChipError) in
        var configuration = MPU6050Driver<BoardBus>.Configuration()
        if let rate = chip.rateHertz { configuration.sampleRateHertz = rate }
        return FIFOReader(try MPU6050Driver(bus: bus, address: chip.address, configuration: configuration), label: chip.label)
    }

    /// An accelerometer/gyroscope emulator's motion, in its chip axes: the recording's, or at
    /// rest face up.
    private static func inertialMotion(_ motion: RecordedMotion?, _ mount: BoardDescription.AxisMapping)
        -> (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double)) {
        { nanoseconds in
            guard let motion else { return (mount.chipAxes((0, 0, 9.80665)), (0, 0, 0)) }
            motion.advance(to: nanoseconds)
            return (mount.chipAxes(motion.acceleration), mount.chipAxes(motion.angularVelocity))
        }
    }

    /// The LSM9DS1 emulator's motion, in its chip axes: the recording's, or at rest face up in
    /// the Earth's field.
    private static func lsm9ds1Motion(_ motion: RecordedMotion?, _ mount: BoardDescription.AxisMapping) -> LSM9DS1Emulator.MotionSource {
        { nanoseconds in
            guard let motion else { return (mount.chipAxes((0, 0, 9.80665)), (0, 0, 0), mount.chipAxes((19, 0, -46))) }
            motion.advance(to: nanoseconds)
            return (mount.chipAxes(motion.acceleration), mount.chipAxes(motion.angularVelocity), mount.chipAxes(motion.magneticField))
        }
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
    /// The emulator as the driver's bus.
    let bus: any I2CBus
    /// The emulator as a chip with a clock and an interrupt pin.
    let chip: any EmulatedChip
    /// Runs the emulator to a board time, first giving it what it must feel then (a
    /// barometer's pressure from the recording).
    let advance: (Int64) -> Void

    /// An emulator whose motion source feeds itself.
    static func inertial(_ emulator: some I2CBus & EmulatedChip) -> Emulation {
        Emulation(bus: emulator, chip: emulator, advance: { emulator.advance(to: $0) })
    }

    /// A barometer emulator given the recording's pressure before each advance.
    static func barometer(_ emulator: some EmulatedBarometer, _ motion: RecordedMotion?) -> Emulation {
        Emulation(bus: emulator, chip: emulator, advance: { time in
            if let motion {
                motion.advance(to: time)
                emulator.pressurePascals = motion.pressure
            }
            emulator.advance(to: time)
        })
    }
}
