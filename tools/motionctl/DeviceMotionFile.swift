import Foundation
import MotionEngine

/// `device_motion.csv` (../shared/specs/replay-outputs.md): one row per fused sample.
final class DeviceMotionFile {
    static let header = "t,qw,qx,qy,qz,roll,pitch,yaw,gravity_x,gravity_y,gravity_z,user_accel_x,user_accel_y,user_accel_z,"
        + "rotation_rate_x,rotation_rate_y,rotation_rate_z,mag_x,mag_y,mag_z,mag_accuracy,heading\n"
    private let file: UnsafeMutablePointer<FILE>
    private let path: String
    private var line = ""

    init(path: String) throws {
        guard let file = fopen(path, "w") else {
            throw OutputError(description: "Could not create \(path): \(String(cString: strerror(errno))). Check that the folder is writable.")
        }
        self.file = file
        self.path = path
        setvbuf(file, nil, _IOFBF, 1 << 20)
        fputs(Self.header, file)
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
        fputs(line, file)
    }

    /// `value` with `decimals` decimals (integer arithmetic: exact and fast), then "," or "\n".
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
        line += last ? "\n" : ","
    }

    func close() throws {
        if fclose(file) != 0 {
            throw OutputError(description: "Could not finish writing \(path): \(String(cString: strerror(errno))).")
        }
    }
}

struct OutputError: Error, CustomStringConvertible {
    var description: String
}
