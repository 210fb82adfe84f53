import FixedPoint
import LinuxIIO
import MotionAlgorithms

/// A chip its kernel driver owns, read through IIO's sysfs attributes once per sample period
/// (sysfs holds only the latest value). Each read goes through libiio's attribute files and
/// builds small arrays: fine at sysfs rates, not a per-sample path for high rates.
final class IIOAttributeReader: ChipReader {
    let device: IIOSensorDevice
    let label: String
    let samplePeriodNanoseconds: Int64

    init(_ device: IIOSensorDevice, label: String, samplePeriodNanoseconds: Int64) {
        self.device = device
        self.label = label
        self.samplePeriodNanoseconds = samplePeriodNanoseconds
    }

    var pollIntervalNanoseconds: Int64 { samplePeriodNanoseconds }
    var lineWatchdogNanoseconds: Int64 { registerWatchdog(samplePeriodNanoseconds) }
    /// The kernel driver recovers its chip; nothing is counted here.
    var recoveries: Int { 0 }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        let values: [IIOSensorDevice.Value]
        do { values = try device.read() } catch { throw .iio(label: label, error) }
        var count = 0
        for value in values.prefix(readings.count) {
            readings[count] = SensorReading(timestampNanoseconds: sampleTime, value: SensorValue(value))
            count += 1
        }
        return count
    }
}

/// A chip its kernel driver owns, read through its IIO buffer: every scan the driver pushes
/// (driven by a trigger or the chip's FIFO), stamped with the kernel's timestamp on
/// CLOCK_MONOTONIC. The runtime waits on the buffer's file descriptor; decoding allocates
/// nothing. A device that disappears (driver unbound, board unplugged) ends the stream with an
/// error naming it.
final class IIOBufferReader: ChipReader {
    let capture: IIOBufferedCapture
    let label: String
    let samplePeriodNanoseconds: Int64
    /// CLOCK_MONOTONIC at board time 0 (set by the runtime once its clock exists).
    var originNanoseconds: Int64 = 0
    private let samples: UnsafeMutableBufferPointer<IIOSample>

    init(_ capture: IIOBufferedCapture, label: String, samplePeriodNanoseconds: Int64) {
        self.capture = capture
        self.label = label
        self.samplePeriodNanoseconds = samplePeriodNanoseconds
        samples = .allocate(capacity: max(64, capture.samplesPerScan * capture.scansPerRefill))
        samples.initialize(repeating: IIOSample(timestampNanoseconds: 0, value: .scalar(.temperature, 0)))
    }

    deinit { samples.deallocate() }

    /// The buffer wakes the runtime; this only bounds how long a silent device goes unnoticed.
    var pollIntervalNanoseconds: Int64 { max(100_000_000, 4 * Int64(capture.scansPerRefill) * samplePeriodNanoseconds) }
    var lineWatchdogNanoseconds: Int64 { pollIntervalNanoseconds }
    /// The kernel driver recovers its chip; nothing is counted here.
    var recoveries: Int { 0 }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        var count = 0
        while count + capture.samplesPerScan <= readings.count {
            let room = min(samples.count, readings.count - count)
            let decoded: Int
            do {
                decoded = try capture.read(into: UnsafeMutableBufferPointer(rebasing: samples[0..<room]), timeoutNanoseconds: 0)
            } catch {
                throw .iio(label: label, error)
            }
            if decoded == 0 { break }
            for index in 0..<decoded {
                let sample = samples[index]
                let time = capture.hasTimestamps ? sample.timestampNanoseconds - originNanoseconds : sampleTime
                readings[count] = SensorReading(timestampNanoseconds: time, value: SensorValue(sample.value))
                count += 1
            }
        }
        return count
    }
}

extension SensorValue {
    /// An IIO value (SI units, device axes) in fixed point: Q16.16, pressure Q24.8.
    init(_ value: IIOSensorDevice.Value) {
        switch value {
        case .vector(let kind, let x, let y, let z):
            let vector = Vector3(x: Q16_16(x), y: Q16_16(y), z: Q16_16(z))
            switch kind {
            case .acceleration: self = .acceleration(vector)
            case .angularVelocity: self = .angularVelocity(vector)
            default: self = .magneticField(vector)
            }
        case .scalar(let kind, let x):
            self = kind == .pressure ? .pressure(Q24_8(x)) : .temperature(Q16_16(x))
        }
    }
}
