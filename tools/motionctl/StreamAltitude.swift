import ArgumentParser
import FixedPoint
import Foundation
import MotionAlgorithms
import MotionEngine

extension Stream {
    /// `stream --altitude`: the board's barometer and thermometer through the altitude stage as
    /// CMAltimeter runs it, printing what its handlers would get at Core Motion's pace (the
    /// first a second after the first pressure reading, then about every second): relative
    /// altitude (m since the first update), pressure (kPa, low-passed), absolute altitude (m) with accuracy and precision (m). Times in
    /// seconds of board time.
    func streamAltitude(_ runtime: BoardRuntime) throws {
        guard runtime.description.channels.contains(.barometer) else {
            throw ValidationError("\(board) (\"\(runtime.description.name)\") has no barometer, which --altitude needs: its chips are "
                                  + runtime.description.chips.map { "\($0.label) (\($0.driver))" }.joined(separator: ", ")
                                  + ". Use a board file with one (driver = " + BoardDescription.drivers(giving: .barometer).joined(separator: ", ")
                                  + "), e.g. boards/sim-gy-521-bmp280.board.")
        }
        let reference = seaLevelPressure.map { AltitudeReference.measured(seaLevelPressure: Q32_32($0 * 1000)) } ?? .standardAtmosphere
        var stage = AltitudeStage(reference: reference)
        var schedule = AltitudeUpdateSchedule()
        print("       t s  relative m  pressure kPa  altitude m  accuracy m  precision m")
        try runtime.run(untilNanoseconds: playback.durationNanoseconds) { reading in
            guard stage.process(reading) != nil, schedule.isDue(at: reading.timestampNanoseconds),
                  let values = stage.update(at: reading.timestampNanoseconds) else { return }
            print(String(format: "%10.3f  %10.3f  %12.4f  %10.2f  %10.1f  %11.3f", Double(values.timestampNanoseconds) / 1e9,
                         values.relativeAltitude, values.pressureKilopascals, values.absoluteAltitude, values.accuracy, values.precision))
        }
    }
}
