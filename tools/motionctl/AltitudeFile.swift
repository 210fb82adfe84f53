import Foundation
import MotionAlgorithms
import MotionEngine
import Recordings

/// `altitude.csv` (CMAltitudeData, ../shared/specs/replay-outputs.md): `t,relative_altitude,pressure`,
/// metres since the first pressure reading and the low-passed pressure in kPa, one row per
/// pressure reading the altimeter stage took (finer than CMAltimeter's 1 s updates, for scoring).
final class AltitudeFile {
    private let file: OutputFile
    private var stage = AltitudeStage()

    init(folder: String) throws {
        file = try OutputFile(folder: folder, name: "altitude.csv", header: "t,relative_altitude,pressure")
    }

    /// One reading through the altimeter stage; a row if it took a pressure reading.
    func process(_ reading: SensorReading) {
        guard stage.process(reading) != nil, let values = stage.update(at: reading.timestampNanoseconds) else { return }
        file.write(TimestampFormatting.format(values.timestampNanoseconds) + "," + String(format: "%.3f", values.relativeAltitude)
                   + "," + String(format: "%.5f", values.pressureKilopascals))
    }

    func close() throws { try file.close() }
}
