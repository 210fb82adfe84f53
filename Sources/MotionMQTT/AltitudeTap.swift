import Glibc
import MotionAlgorithms
import MotionManagerCore
import Locking

/// Altitude from a board's barometer, as `CMAltimeter` gives it: the height relative to the
/// first reading since the tap started, from the international barometric formula
/// (h = 44330 m · (1 − (p / 101325 Pa)^(1/5.255)), ISA troposphere), and the pressure in kPa,
/// at most once per `intervalNanoseconds`.
final class AltitudeTap: Sendable {
    private let board: LiveBoard
    private let tap: ReadingTap
    private let intervalNanoseconds: Int64

    private struct State {
        /// The first reading's height above the 101325 Pa level, m.
        var referenceMeters: Double?
        var lastEmitted: Int64?
    }

    /// `emit(time ns CLOCK_MONOTONIC, relative altitude m, pressure kPa)` runs on the engine thread.
    init(board: LiveBoard, intervalNanoseconds: Int64, emit: @escaping @Sendable (Int64, Float, Float) -> Void) {
        self.board = board
        self.intervalNanoseconds = intervalNanoseconds
        let state = Lock(State())
        tap = ReadingTap(channels: [.barometer]) { event in
            guard case .reading(let reading) = event, case .pressure(let pressure) = reading.value else { return }
            let pascals = pressure.doubleValue
            guard pascals > 0 else { return }
            let height = 44_330 * (1 - pow(pascals / 101_325, 1 / 5.255))
            let relative = state.withLock { state -> Double? in
                let reference = state.referenceMeters ?? height
                state.referenceMeters = reference
                if let last = state.lastEmitted, reading.timestampNanoseconds - last < intervalNanoseconds { return nil }
                state.lastEmitted = reading.timestampNanoseconds
                return height - reference
            }
            if let relative { emit(reading.timestampNanoseconds, Float(relative), Float(pascals / 1000)) }
        }
    }

    func start() throws(MotionManagerError) { try board.add(tap) }

    func stop() { board.remove(tap) }
}
