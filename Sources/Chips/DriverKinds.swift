public import FixedPoint
public import MotionAlgorithms

// The shapes a chip driver comes in, so that the engine reads every chip of a shape the same
// way (adding a chip of an existing shape is its folder plus one registry line, no engine code).
// FIFOInertialDriver, the fourth shape, lives beside the shared FIFO reader in FIFODrain.swift.

/// Every driver notices a chip that was reset (or lost power) mid-stream, re-initialises it by
/// itself and counts it.
public protocol SelfRecoveringDriver: AnyObject {
    /// How many times the chip was found reset and brought back.
    var recoveries: Int { get }
}

/// An accelerometer + gyroscope read from its output registers, one sample at a time.
public protocol PolledInertialDriver: SelfRecoveringDriver {
    /// Time between two samples at the configured output data rate, in nanoseconds.
    var samplePeriodNanoseconds: Int64 { get }
    /// The newest (acceleration, angular velocity) pair stamped `nowNanoseconds`, or nil when
    /// the chip has no new sample (or was found reset and re-initialised).
    func read(nowNanoseconds: Int64) throws(ChipError) -> (acceleration: SensorReading, angularVelocity: SensorReading)?
}

/// A magnetometer read from its output registers, one sample at a time.
public protocol PolledMagnetometerDriver: SelfRecoveringDriver {
    /// Time between two samples, in nanoseconds.
    var samplePeriodNanoseconds: Int64 { get }
    /// The newest magnetic field stamped `nowNanoseconds`, or nil when there is none.
    func read(nowNanoseconds: Int64) throws(ChipError) -> SensorReading?
}

/// A chip giving accelerometer, gyroscope and field, the field on a period of its own.
public protocol NineAxisTiming: SelfRecoveringDriver {
    /// Time between two inertial samples, in nanoseconds.
    var samplePeriodNanoseconds: Int64 { get }
    /// Time between two fields, in nanoseconds (a multiple of the sample period).
    var magnetometerPeriodNanoseconds: Int64 { get }
}

/// An accelerometer + gyroscope with a magnetometer behind it, read together from one set of
/// output registers (ICM-20948: the AK09916's bytes land beside the inertial data each sample;
/// BNO055: its three sensors in one burst, the field at 20 Hz).
public protocol PolledNineAxisDriver: NineAxisTiming {
    /// The newest sample stamped `nowNanoseconds` (with a field when one came in the same
    /// cycle), or nil when the chip has none (or was found reset and re-initialised).
    func read(nowNanoseconds: Int64) throws(ChipError)
        -> (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)?
}

/// A barometer: pressure and die temperature, one measurement per period.
public protocol BarometerDriver: SelfRecoveringDriver {
    /// Time between two reads, in nanoseconds.
    var measurementPeriodNanoseconds: Int64 { get }
    /// How many reads give one measurement: 1, or 2 for a chip that converts temperature and
    /// pressure in turn (MS5837: D2, then D1).
    var readsPerMeasurement: Int64 { get }
    /// The latest measurement: pressure in Pa (Q24.8) and temperature in °C (Q16.16); nil
    /// when the chip has none yet (just started, or found reset and re-initialised).
    func readPressureAndTemperature() throws(ChipError) -> (pressure: Q24_8, temperature: Q16_16)?
}

extension LSM9DS1InertialDriver: PolledInertialDriver {}
extension LSM6DSXDriver: PolledInertialDriver {}
extension ICM20948Driver: PolledNineAxisDriver {}
extension BNO08XDriver: NineAxisTiming {}
extension BNO055Driver: PolledNineAxisDriver {}
extension AK8963Driver: PolledMagnetometerDriver {}
extension LSM9DS1MagnetometerDriver: PolledMagnetometerDriver {}
extension QMC5883LDriver: PolledMagnetometerDriver {}
extension HMC5883LDriver: PolledMagnetometerDriver {}
extension LIS2MDLDriver: PolledMagnetometerDriver {}
extension MMC5983MADriver: PolledMagnetometerDriver {}

extension BarometerDriver {
    public var readsPerMeasurement: Int64 { 1 }
}

extension BMP280Driver: BarometerDriver {
    public func readPressureAndTemperature() throws(ChipError) -> (pressure: Q24_8, temperature: Q16_16)? {
        try read().map { ($0.pressure, $0.temperature) }
    }
}

extension BMP388Driver: BarometerDriver {
    /// Read at half the output period; a result comes every other read (see the driver).
    public var readsPerMeasurement: Int64 { 2 }

    public func readPressureAndTemperature() throws(ChipError) -> (pressure: Q24_8, temperature: Q16_16)? {
        try read().map { ($0.pressure, $0.temperature) }
    }
}

extension LPS25HDriver: BarometerDriver {
    public func readPressureAndTemperature() throws(ChipError) -> (pressure: Q24_8, temperature: Q16_16)? {
        try read().map { ($0.pressure, $0.temperature) }
    }
}

extension MS5837Driver: BarometerDriver {
    public var readsPerMeasurement: Int64 { 2 }

    public func readPressureAndTemperature() throws(ChipError) -> (pressure: Q24_8, temperature: Q16_16)? {
        try read().map { ($0.pressure, $0.temperature) }
    }
}
