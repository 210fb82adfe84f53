import ArgumentParser
import Dispatch
import Foundation
import MotionEngine
import OpenCoreMotion
import Locking

/// `motionctl timing --api`: the timing contract as an app sees it (issue 11), measured where a
/// loaded machine may change the figures without failing a test: `CMMotionManager`
/// accelerometer push updates at 0.01 s on a serial `OperationQueue` whose dispatch queue is its
/// own, each update's delivery taken in its handler, the start taken just before
/// `startAccelerometerUpdates`.
enum TimingThroughManager {
    static let interval = 0.01

    static func run(board: String, seconds: Double) throws {
        let description = try BoardDescription.load(path: board)
        let manager = CMMotionManager(board: board)
        guard manager.isAccelerometerAvailable else { throw ValidationError("\(description.name): no accelerometer") }
        manager.accelerometerUpdateInterval = interval
        // The stream's period: the interval, or the chip's own period if it is slower.
        let chipHertz = description.chips.first { $0.channels.contains(.accelerometer) }?.rateHertz ?? 100
        let period = max(Int64(interval * 1e9), 1_000_000_000 / Int64(max(1, chipHertz)))
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let dispatchQueue = DispatchQueue(label: "motionctl timing --api")
        queue.underlyingQueue = dispatchQueue
        let measurement = Lock(TimingMeasurement(samplePeriodNanoseconds: period, startNanoseconds: PacedClock.monotonicNanoseconds()))
        manager.startAccelerometerUpdates(to: queue) { data, _ in
            guard let data else { return }
            let delivered = PacedClock.monotonicNanoseconds()
            measurement.withLock { $0.record(timestampNanoseconds: data.timestampNanoseconds, deliveredNanoseconds: delivered) }
        }
        Thread.sleep(forTimeInterval: seconds)
        manager.stopAccelerometerUpdates()
        queue.waitUntilAllOperationsAreFinished()
        withExtendedLifetime(dispatchQueue) {}
        let m = measurement.withLock { $0 }
        let contract = TimingContract(samplePeriodNanoseconds: period)
        let reported = SampleLoss(dropped: manager.lostAccelerometerSamples + manager.droppedAccelerometerUpdates,
                                  duplicated: manager.repeatedAccelerometerSamples)
        print("\(description.name), \(String(format: "%.1f", seconds)) s, CMMotionManager accelerometer push updates every \(interval) s")
        print(header)
        print(row(m, contract: contract, reported: reported))
        let violations = contract.violations(of: m, reported: reported)
        for violation in violations { print("  BROKEN: \(violation)") }
        if !violations.isEmpty { throw ExitCode(1) }
    }

    static let header = "updates  rate Hz   first ms (bound)  delivery ms p50 / p99 / max (bound)   jitter % (p99 %)   drops (reported)   dups (reported)"

    static func row(_ m: TimingMeasurement, contract: TimingContract, reported: SampleLoss) -> String {
        func ms(_ nanoseconds: Int64?) -> String { nanoseconds.map { String(format: "%.2f", Double($0) / 1e6) } ?? "-" }
        func left(_ text: String, _ width: Int) -> String { text.count >= width ? text : String(repeating: " ", count: width - text.count) + text }
        let rate = String(format: "%.1f", 1e9 / Double(contract.samplePeriodNanoseconds))
        let jitter = m.jitter.map { String(format: "%.3f", $0 * 100) } ?? "-"
        let p99 = m.jitterP99.map { String(format: "%.3f", $0 * 100) } ?? "-"
        return left("\(m.sampleCount)", 7) + "  " + left(rate, 7)
            + "  " + left(ms(m.firstSampleLatencyNanoseconds), 8) + " (" + ms(contract.firstSampleBound) + ")"
            + "  " + left(ms(m.deliveryLatency(percentile: 0.5)), 7) + " / " + ms(m.deliveryLatency(percentile: 0.99)) + " / "
            + ms(m.maximumDeliveryLatencyNanoseconds) + " (" + ms(contract.deliveryBound) + ")"
            + "  " + left(jitter, 7) + " (" + p99 + ")"
            + "  " + left("\(m.loss.dropped)", 6) + " (\(reported.dropped))" + "  " + left("\(m.loss.duplicated)", 6) + " (\(reported.duplicated))"
    }
}
