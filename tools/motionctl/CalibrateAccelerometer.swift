import Foundation
import MotionEngine

/// `motionctl calibrate accelerometer`: the six-position calibration, guided.
extension Calibrate {
    /// Reads the accelerometer until the six poses are captured (`SixPositionPoses`), showing
    /// which are still missing, then fits offset and scale (`AccelerometerFit`).
    func measureAccelerometer(_ runtime: BoardRuntime) throws -> AccelerometerFit {
        print("Lay the board still on a table with each axis up and then down (6 poses, any order, 2 s each).")
        var poses = SixPositionPoses()
        let end = playback.duration.map { Int64($0 * 1e9) } ?? 600_000_000_000
        let terminal = isatty(STDOUT_FILENO) == 1
        var nextLine: Int64 = 0
        var captured = 0
        while !poses.isComplete && !runtime.isFinished && runtime.nowNanoseconds < end - 1 {
            try runtime.step(notAfter: end - 1) { reading in
                guard case .acceleration(let a) = reading.value else { return }
                poses.add((a.x.doubleValue, a.y.doubleValue, a.z.doubleValue), at: reading.timestampNanoseconds)
            }
            if poses.captured.count > captured {
                captured = poses.captured.count
                if terminal { print("\r\u{1B}[K", terminator: "") }
                print("captured \(poses.current.map { "\($0)" } ?? "a pose") (\(captured) of 6)")
            }
            guard runtime.nowNanoseconds >= nextLine else { continue }
            // Redrawn in place on a terminal, four times a second; a line a second in a log.
            nextLine = runtime.nowNanoseconds + (terminal ? 250_000_000 : 1_000_000_000)
            let now = poses.current.map { pose in
                poses.captured.contains(pose) ? "\(pose) (done)"
                    : String(format: "%@, still %.1f of %.1f s", "\(pose)", Double(poses.stillNanoseconds) / 1e9, Double(poses.holdNanoseconds) / 1e9)
            } ?? "moving or between poses"
            let line = "missing: " + poses.missing.map(\.description).joined(separator: ", ") + "  |  now: " + now
            if terminal {
                print("\r\u{1B}[K" + line, terminator: "")
                fflush(nil)  // every stream: stdout is line-buffered on a terminal
            } else {
                print(line)
            }
        }
        if terminal { print("\r\u{1B}[K", terminator: "") }
        guard poses.isComplete else {
            throw CalibrationFailure(description: "the poses " + poses.missing.map(\.description).joined(separator: ", ")
                                     + " were not held still: lay the board flat in each of them for 2 s and run again (--duration to allow longer)")
        }
        guard let fit = AccelerometerFit.fit(poses: poses.samples) else {
            throw CalibrationFailure(description: "the six poses do not fit an accelerometer with a scale within 0.5…2 of its nominal one: "
                                     + "check that the board file's chip is right and run again")
        }
        print(String(format: "accelerometer offset %.4f %.4f %.4f m/s² (%.1f %.1f %.1f mg), scale %.5f %.5f %.5f",
                     fit.offset[0], fit.offset[1], fit.offset[2], fit.offset[0] / 9.80665e-3, fit.offset[1] / 9.80665e-3, fit.offset[2] / 9.80665e-3,
                     fit.scale[0], fit.scale[1], fit.scale[2]))
        print(String(format: "residual %.4f m/s² RMS, gravity's magnitude off by up to %.4f m/s² before and %.4f after, quality %d/100",
                     fit.residual, fit.gravityErrorBefore, fit.gravityErrorAfter, fit.quality))
        return fit
    }
}
