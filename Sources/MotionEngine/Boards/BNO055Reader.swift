import Chips
import MotionAlgorithms

/// A reader whose chip learns its own calibration profile (the BNO055), which is lost at
/// power-off: the runtime passes what it learned on (`BoardRuntime.onChipProfile`) to be saved.
protocol ProfileLearningReader: AnyObject {
    var onLearnedProfile: (([Int16]) -> Void)? { get set }
}

/// The BNO055 read as a nine-axis chip (its sensors to the engine's pipeline; its own fusion
/// when asked, `latestChipFusion`), which also takes the calibration profile its fusion
/// learned, once it reports itself fully calibrated (CALIB_STAT 0xFF): at the first such
/// sample of a run, then at most every 10 minutes (each take switches the chip to CONFIGMODE
/// and back: 26 ms without samples, BST-BNO055-DS000-14 table 3-6).
final class BNO055Reader: PolledNineAxisReader<BNO055Driver<BoardBus>>, ProfileLearningReader, ChipFusionReader {
    /// Between two takes of the profile, ns of board time.
    static let profileIntervalNanoseconds: Int64 = 600_000_000_000
    var onLearnedProfile: (([Int16]) -> Void)?
    private var lastProfileNanoseconds: Int64?

    override func read(sampleTime: Int64, into readings: UnsafeMutableBufferPointer<SensorReading>) throws(EngineError) -> Int {
        do {
            let sample = try driver.read(nowNanoseconds: sampleTime)
            if let onLearnedProfile, sample != nil, driver.latestFusion?.calibration.isFullyCalibrated == true,
               lastProfileNanoseconds.map({ sampleTime - $0 >= Self.profileIntervalNanoseconds }) ?? true {
                lastProfileNanoseconds = sampleTime
                let profile = try driver.readCalibrationProfile()
                if profile.isPlausible { onLearnedProfile(profile.values) }
            }
            return store(sample, into: readings)
        } catch {
            throw .chip(label: label, error)
        }
    }

    /// NDOF's quaternion with CALIB_STAT (nil in AMG, and before the fusion's first output).
    var latestChipFusion: ChipFusionReading? {
        guard let fusion = driver.latestFusion else { return nil }
        var reading = ChipFusionReading(label: label, timestampNanoseconds: fusion.timestampNanoseconds, attitude: fusion.attitude)
        reading.calibration = fusion.calibration
        return reading
    }
}
