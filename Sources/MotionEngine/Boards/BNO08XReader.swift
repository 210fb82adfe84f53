import Chips
import MotionAlgorithms

/// A reader whose chip runs its own fusion (BNO08x, BNO055): what it computed, for boards that
/// ask for it (`chip-fusion = on`; the runtime mounts it and passes it on, `BoardRuntime.onChipFusion`).
protocol ChipFusionReader: AnyObject {
    /// The chip's latest own outputs, in chip axes, stamped by the driver; nil before its first
    /// attitude. The same value until a newer sample comes (the runtime passes on each once).
    var latestChipFusion: ChipFusionReading? { get }
}

/// The BNO08x, a sensor hub that sends packets of reports when it has them: every read takes
/// what waits, any number of readings, each stamped by the hub (its base timestamp and delays,
/// relative to the read's sample time). Its field has its own period (at most 100 Hz). Its
/// rotation vectors, step count and classes stay in the driver (`BNO08XDriver.fused`) until
/// asked for (`latestChipFusion`).
final class BNO08XReader: NineAxisReader<BNO08XDriver<BoardBus>>, ChipReader, ChipFusionReader {

    func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        do { return try driver.read(into: readings, nowNanoseconds: sampleTime) } catch { throw .chip(label: label, error) }
    }

    /// The rotation vector (the game rotation vector's time when the hub has sent no rotation
    /// vector yet, which a hub without a working magnetometer never does) with the rest.
    var latestChipFusion: ChipFusionReading? {
        let fused = driver.fused
        guard let main = fused.rotationVector ?? fused.gameRotationVector else { return nil }
        var reading = ChipFusionReading(label: label, timestampNanoseconds: main.timestampNanoseconds, attitude: main.quaternion)
        reading.attitudeAccuracy = main.accuracy
        reading.headingAccuracy = main.headingAccuracy
        reading.gameAttitude = fused.gameRotationVector?.quaternion
        reading.steps = fused.steps
        reading.stability = fused.stability
        if let activity = fused.activity {
            reading.activity = activity
            reading.activityConfidence = fused.activityConfidence
        }
        return reading
    }

    /// The driver's counts of what went wrong between host and hub, all of them.
    var driverCounters: [ChipCounter] {
        [ChipCounter("reset announcements", driver.resetAnnouncements), ChipCounter("feature refreshes", driver.featureRefreshes),
         ChipCounter("sequence gaps", driver.lostPackets), ChipCounter("framing errors", driver.framingErrors),
         ChipCounter("truncated batches", driver.truncatedBatches), ChipCounter("unknown-report batches", driver.unknownReportBatches),
         ChipCounter("skipped reports", driver.skippedReports), ChipCounter("readings dropped", driver.droppedReadings)]
    }
}
