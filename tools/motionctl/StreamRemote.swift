import Foundation
import MotionMQTT
import Synchronization

extension Stream {
    /// `stream --remote BOARD --config FILE`: device motion of a board publishing to the broker,
    /// as `CMHeadphoneMotionManager` gives it (attitude relative to the first sample; connect and
    /// disconnect events), with each sample's end-to-end latency (board sample time to arrival
    /// here), and the latency's median, 99th percentile and maximum at the end.
    func streamRemote(_ board: String, configurationFile: String) throws {
        let configuration = try MQTTConfigOption.load(path: configurationFile)
        stopRequested.install()
        standardOutput("     seq  roll °  pitch °  yaw °   user acc g              latency ms")
        let lastPrinted = Atomic<Int64>(0)  // ns since 1970: any sample is later than an interval after 0
        let every = Int64(min(interval, 1e6) * 1e9)
        let remote = try RemoteDeviceMotion(configuration: configuration, board: board, log: standardError) { event in
            switch event {
            case .connected: standardOutput("\(board) connected")
            case .disconnected(let reason): standardOutput("\(board) disconnected: \(reason)")
            case .sample(let sample):
                // --interval: at most one line per interval of sample time.
                guard every <= 0 || sample.timestampUnixNanoseconds - lastPrinted.load(ordering: .relaxed) >= every else { return }
                lastPrinted.store(sample.timestampUnixNanoseconds, ordering: .relaxed)
                let f = sample.fields
                let degrees = 180 / Float.pi
                // Euler angles of the relative attitude (Core Motion's: R = Rz(yaw)·Rx(pitch)·Ry(roll)).
                let m31 = 2 * (f.x * f.z - f.w * f.y), m33 = 1 - 2 * (f.x * f.x + f.y * f.y)
                let m32 = 2 * (f.y * f.z + f.w * f.x), m12 = 2 * (f.x * f.y - f.w * f.z), m22 = 1 - 2 * (f.x * f.x + f.z * f.z)
                standardOutput(String(format: "%8u %7.1f %8.1f %6.1f  %6.3f %6.3f %6.3f  %8.2f", sample.sequence,
                                      atan2(-m31, m33) * degrees, asin(max(-1, min(1, m32))) * degrees, atan2(-m12, m22) * degrees,
                                      f.userAcceleration.x, f.userAcceleration.y, f.userAcceleration.z, Double(sample.latencyNanoseconds) / 1e6))
            }
        }
        try remote.start()
        let end = playback.duration.map { MQTTClock.monotonicSeconds() + $0 }
        while !stopRequested.isRaised, end.map({ MQTTClock.monotonicSeconds() < $0 }) ?? true { usleep(50_000) }
        remote.stop()
        let latencies = remote.latencies
        guard !latencies.isEmpty else { return standardOutput("no samples from \(board)") }
        func milliseconds(_ fraction: Double) -> String {
            String(format: "%.2f", Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]) / 1e6)
        }
        standardOutput("latency over \(latencies.count) samples: median \(milliseconds(0.5)) ms, 99th percentile \(milliseconds(0.99)) ms, "
                       + "max \(String(format: "%.2f", Double(latencies.last!) / 1e6)) ms")
    }
}
