import Chips
import FixedPoint
import MotionAlgorithms

/// One chip's way of producing readings, whatever its family: the board runtime's only view of
/// a driver. Readers write into the runtime's buffer (no allocation per read) and say how often
/// they must be read so that no sample is lost.
protocol ChipReader: AnyObject {
    /// Time between two samples, in nanoseconds.
    var samplePeriodNanoseconds: Int64 { get }
    /// How often to read the chip when nothing tells the runtime a sample is ready (no
    /// data-ready line): often enough that none is lost.
    var pollIntervalNanoseconds: Int64 { get }
    /// How long a data-ready line may stay silent before the runtime reads the chip anyway: a
    /// reset chip forgets its interrupt routing, and only a read lets the driver notice and
    /// re-initialise it. Shorter than what the chip can hold, so a FIFO never overflows meanwhile.
    var lineWatchdogNanoseconds: Int64 { get }
    /// Reads what the chip has into `readings`; `sampleTime` is when its newest sample was
    /// taken (a data-ready edge's timestamp) or, when polled, the poll's time. Returns how many
    /// were written; a full buffer means more may be waiting.
    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int
    /// Chip resets the driver noticed and recovered from; FIFO overflows (samples lost).
    var recoveries: Int { get }
    var overflows: Int { get }
    /// Time between two samples of `channel`: the chip's period, or a multiple of it for a
    /// sensor that comes with some samples only (the ICM-20948's magnetometer at 1.1 kHz).
    func samplePeriodNanoseconds(of channel: SensorChannel) -> Int64
    /// What the driver counts beyond recoveries and overflows (a BNO08x's lost packets), for
    /// `ChipStatus.driverCounters`.
    var driverCounters: [ChipCounter] { get }
    /// Why a chip that gives no readings is silent and what to do, for the runtime's warning.
    var silenceExplanation: String { get }
}

extension ChipReader {
    var overflows: Int { 0 }
    var driverCounters: [ChipCounter] { [] }
    var silenceExplanation: String {
        "it answers on the bus but produces no data. Check its power supply; a power-cycle usually brings it back"
    }
    func samplePeriodNanoseconds(of channel: SensorChannel) -> Int64 { samplePeriodNanoseconds }
}

/// Polling interval for a chip whose output registers hold one sample: half its period, so
/// none is missed, between 0.5 and 10 ms.
func registerPollInterval(_ period: Int64) -> Int64 { min(10_000_000, max(500_000, period / 2)) }

/// Line watchdog for a chip whose output registers hold one sample: four periods, at least 20 ms.
func registerWatchdog(_ period: Int64) -> Int64 { max(20_000_000, 4 * period) }

/// What every driver-backed reader holds: the driver and the chip's label for errors.
class DriverReader<Driver: SelfRecoveringDriver> {
    let driver: Driver
    let label: String

    init(_ driver: Driver, label: String) {
        self.driver = driver
        self.label = label
    }

    var recoveries: Int { driver.recoveries }
}

/// The timing of a nine-axis chip whose field has its own period (ICM-20948, BNO08x): read
/// like a register chip at its inertial period.
class NineAxisReader<Driver: NineAxisTiming>: DriverReader<Driver> {
    var samplePeriodNanoseconds: Int64 { driver.samplePeriodNanoseconds }
    func samplePeriodNanoseconds(of channel: SensorChannel) -> Int64 {
        channel == .magnetometer ? driver.magnetometerPeriodNanoseconds : driver.samplePeriodNanoseconds
    }
    var pollIntervalNanoseconds: Int64 { registerPollInterval(samplePeriodNanoseconds) }
    var lineWatchdogNanoseconds: Int64 { registerWatchdog(samplePeriodNanoseconds) }
}

/// A FIFO accelerometer + gyroscope (MPU-6050 family, BMI160): drained in bursts.
final class FIFOReader<Driver: FIFOInertialDriver>: DriverReader<Driver>, ChipReader {
    var overflows: Int { driver.overflows }
    var samplePeriodNanoseconds: Int64 { driver.samplePeriodNanoseconds }
    /// What the FIFO spans, in nanoseconds.
    private var spanNanoseconds: Int64 { Int64(driver.fifoCapacityFrames) * driver.samplePeriodNanoseconds }
    /// A quarter of the FIFO's span, at most 10 ms (latency).
    var pollIntervalNanoseconds: Int64 { min(10_000_000, spanNanoseconds / 4) }
    var lineWatchdogNanoseconds: Int64 { min(registerWatchdog(samplePeriodNanoseconds), spanNanoseconds / 2) }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        do {
            return try driver.drain(into: readings, nowNanoseconds: sampleTime).readings
        } catch {
            throw .chip(label: label, error)
        }
    }
}

/// An accelerometer + gyroscope read from its output registers (LSM9DS1, LSM6DSx).
final class PolledInertialReader<Driver: PolledInertialDriver>: DriverReader<Driver>, ChipReader {
    var samplePeriodNanoseconds: Int64 { driver.samplePeriodNanoseconds }
    var pollIntervalNanoseconds: Int64 { registerPollInterval(samplePeriodNanoseconds) }
    var lineWatchdogNanoseconds: Int64 { registerWatchdog(samplePeriodNanoseconds) }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        let pair: (acceleration: SensorReading, angularVelocity: SensorReading)?
        do { pair = try driver.read(nowNanoseconds: sampleTime) } catch { throw .chip(label: label, error) }
        guard let pair else { return 0 }
        readings[0] = pair.acceleration
        readings[1] = pair.angularVelocity
        return 2
    }
}

/// An accelerometer + gyroscope with its magnetometer's bytes beside the inertial data
/// (ICM-20948, BNO055): two or three readings per sample, the field only in the cycles that brought one.
/// The magnetometer channel has its own period (every 11th sample at 1.1 kHz).
/// Not final: the BNO055's reader also takes its calibration profile (`BNO055Reader`).
class PolledNineAxisReader<Driver: PolledNineAxisDriver>: NineAxisReader<Driver>, ChipReader {

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        let sample: (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)?
        do { sample = try driver.read(nowNanoseconds: sampleTime) } catch { throw .chip(label: label, error) }
        return store(sample, into: readings)
    }
}

/// A nine-axis sample into a reader's buffer: two readings, three with a field; 0 for none.
func store(_ sample: (acceleration: SensorReading, angularVelocity: SensorReading, magneticField: SensorReading?)?,
           into readings: UnsafeMutableBufferPointer<SensorReading>) -> Int {
    guard let sample else { return 0 }
    readings[0] = sample.acceleration
    readings[1] = sample.angularVelocity
    guard let field = sample.magneticField else { return 2 }
    readings[2] = field
    return 3
}

/// A magnetometer read from its output registers (AK8963, LSM9DS1 magnetometer, LIS3MDL,
/// QMC5883L, HMC5883L, LIS2MDL, MMC5983MA).
final class PolledMagnetometerReader<Driver: PolledMagnetometerDriver>: DriverReader<Driver>, ChipReader {
    var samplePeriodNanoseconds: Int64 { driver.samplePeriodNanoseconds }
    var pollIntervalNanoseconds: Int64 { registerPollInterval(samplePeriodNanoseconds) }
    var lineWatchdogNanoseconds: Int64 { registerWatchdog(samplePeriodNanoseconds) }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        let reading: SensorReading?
        do { reading = try driver.read(nowNanoseconds: sampleTime) } catch { throw .chip(label: label, error) }
        guard let reading else { return 0 }
        readings[0] = reading
        return 1
    }
}

/// A barometer (BMP280/BME280, LPS25H, MS5837): read once per measurement period on a fixed
/// schedule (faster reads would repeat its latest result; a schedule keeps slow reads from
/// stretching it); a chip that needs two reads per measurement samples at half that rate.
final class BarometerReader<Driver: BarometerDriver>: DriverReader<Driver>, ChipReader {
    var samplePeriodNanoseconds: Int64 { driver.measurementPeriodNanoseconds * driver.readsPerMeasurement }
    var pollIntervalNanoseconds: Int64 { driver.measurementPeriodNanoseconds }
    var lineWatchdogNanoseconds: Int64 { registerWatchdog(samplePeriodNanoseconds) }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        let measurement: (pressure: Q24_8, temperature: Q16_16)?
        do { measurement = try driver.readPressureAndTemperature() } catch { throw .chip(label: label, error) }
        guard let measurement else { return 0 }
        readings[0] = SensorReading(timestampNanoseconds: sampleTime, value: .pressure(measurement.pressure))
        readings[1] = SensorReading(timestampNanoseconds: sampleTime, value: .temperature(measurement.temperature))
        return 2
    }
}
