import Foundation
import MotionEngine

/// `device_motion.csv` (../shared/specs/replay-outputs.md): one row per fused sample.
final class DeviceMotionFile {
    static let header = "t,qw,qx,qy,qz,roll,pitch,yaw,gravity_x,gravity_y,gravity_z,user_accel_x,user_accel_y,user_accel_z,"
        + "rotation_rate_x,rotation_rate_y,rotation_rate_z,mag_x,mag_y,mag_z,mag_accuracy,heading"
    private let file: OutputFile
    private var line = ""

    init(path: String) throws {
        file = try OutputFile(path: path, header: Self.header)
        line.reserveCapacity(256)
    }

    func write(_ motion: DeviceMotion) {
        line.removeAll(keepingCapacity: true)
        let euler = motion.eulerAngles
        append(Double(motion.timestampNanoseconds) / 1e9, 9)
        for value in [motion.attitude.w, motion.attitude.x, motion.attitude.y, motion.attitude.z] { append(value.doubleValue, 9) }
        for value in [euler.roll, euler.pitch, euler.yaw] { append(value.doubleValue, 6) }
        for vector in [motion.gravity, motion.userAcceleration, motion.rotationRate, motion.magneticField] {
            append(vector.x.doubleValue, 6)
            append(vector.y.doubleValue, 6)
            append(vector.z.doubleValue, 6)
        }
        line += String(motion.magneticAccuracy)
        line += ","
        append(motion.heading.doubleValue, 4, last: true)
        file.write(line)
    }

    /// `value` with `decimals` decimals (integer arithmetic: exact and fast), then "," unless last.
    private func append(_ value: Double, _ decimals: Int, last: Bool = false) {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
        if scaled < 0 { line += "-" }
        let magnitude = scaled.magnitude
        line += String(magnitude / UInt64(scale))
        if decimals > 0 {
            let fraction = String(magnitude % UInt64(scale))
            line += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        if !last { line += "," }
    }

    func close() throws {
        try file.close()
    }
}
