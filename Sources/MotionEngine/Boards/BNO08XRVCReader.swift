import Chips
import MotionAlgorithms

/// A BNO085/BNO086 in UART-RVC mode: polled at half its 10 ms frame period (a UART has no
/// data-ready line), one accelerometer reading per frame; with `chip-fusion = on` the hub's
/// attitude of the newest frame (yaw, pitch, roll at 0.01°) is passed on. No gyroscope, field,
/// accuracy, steps or classes come in this mode: those fields stay nil.
final class BNO08XRVCReader: ChipReader, ChipFusionReader {
    let driver: BNO08XRVCDriver<BoardSerialLine>
    let label: String

    init(_ driver: BNO08XRVCDriver<BoardSerialLine>, label: String) {
        self.driver = driver
        self.label = label
    }

    var samplePeriodNanoseconds: Int64 { BNO08XRVCDriver<BoardSerialLine>.samplePeriodNanoseconds }
    var pollIntervalNanoseconds: Int64 { registerPollInterval(samplePeriodNanoseconds) }
    var lineWatchdogNanoseconds: Int64 { registerWatchdog(samplePeriodNanoseconds) }
    var recoveries: Int { driver.recoveries }

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        do { return try driver.read(into: readings, nowNanoseconds: sampleTime) } catch { throw .chip(label: label, error) }
    }

    var latestChipFusion: ChipFusionReading? {
        driver.latestAttitude.map { ChipFusionReading(label: label, timestampNanoseconds: $0.timestampNanoseconds, attitude: $0.quaternion) }
    }

    /// What the line spoiled, all of it.
    var driverCounters: [ChipCounter] {
        let scanner = driver.scanner
        return [ChipCounter("frames", scanner.frames), ChipCounter("frames lost", scanner.lostFrames),
                ChipCounter("checksum errors", scanner.checksumErrors), ChipCounter("range errors", scanner.rangeErrors),
                ChipCounter("resynchronisations", scanner.resynchronisations), ChipCounter("bytes discarded", scanner.discardedBytes)]
    }

    var silenceExplanation: String {
        "no UART-RVC frame arrived on \(driver.stream.name) (\(driver.scanner.discardedBytes) bytes discarded so far). "
            + "Check the hub's TX → the board's RX wire and the hub's power, and that PS0 is high and PS1 low at reset; "
            + "bytes discarded without frames mean a line at another baud rate or a floating RX pin"
    }
}
