import ArgumentParser
import Foundation
import MotionAlgorithms
import MotionEngine

/// `motionctl timing`: a board's streams against the timing contract (issue 11, Android CDD 7.3).
struct Timing: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure a board's timing from a cold start: first-sample latency, delivery latency, jitter, drops, duplicates.",
        discussion: """
            Runs the board in real time for --seconds and checks each stream against the contract:
            first sample within 400 ms + 2 periods of start, delivery latency within 100 ms + 2
            periods, timestamps strictly increasing and taken from the sample (data-ready edge,
            FIFO, kernel IIO timestamp or the chip's sample schedule), jitter (standard deviation
            of consecutive timestamp differences over the period, CDD 7.3) under 3 %, and every
            lost or repeated sample counted by the runtime. Exits 1 if a clause is broken.

            --api measures as an app sees it instead: CMMotionManager accelerometer push updates at
            its fastest interval (0.01 s) on a serial OperationQueue with a dispatch queue of its
            own, from the start call to the handler; lost samples and updates dropped for the
            queue both count as reported drops. This is where the push path's latency is
            measured (the unit tests judge only the clauses that hold whatever the load).
            """)

    @Option(help: "A board file (default: boards/sim-mpu-9250.board).")
    var board: String = BoardLocations.locate("boards/sim-mpu-9250.board")

    @Option(help: "Ask every accelerometer/gyroscope chip for this rate in Hz (its driver takes the nearest it supports; default: the board file's).")
    var rate: Int?

    @Option(help: "How long to run, in seconds.")
    var seconds: Double = 5

    @Flag(help: "Through the Swift API: CMMotionManager accelerometer push updates at 0.01 s on an OperationQueue, start call to handler.")
    var api = false

    func validate() throws {
        guard seconds > 0, seconds.isFinite else { throw ValidationError("--seconds must be more than 0, got \(seconds)") }
        if let rate, !(1...10_000).contains(rate) { throw ValidationError("--rate must be 1…10000 Hz, got \(rate)") }
        if api, rate != nil { throw ValidationError("--api runs the board file as it is: --rate does not apply") }
    }

    func run() throws {
        if api { return try TimingThroughManager.run(board: board, seconds: seconds) }
        var description = try BoardDescription.load(path: board)
        if let rate { description = BoardTiming.withInertialRate(description, hertz: rate) }
        let streams = try BoardTiming.measure(description, root: BoardLocations.dataRoot(forBoardFile: board), seconds: seconds)
        print("\(description.name), \(String(format: "%.1f", seconds)) s" + (rate.map { ", inertial rate \($0) Hz asked" } ?? ""))
        print(Self.header)
        var broken = false
        for stream in streams {
            print(Self.row(stream))
            for violation in stream.violations {
                print("  BROKEN: \(violation)")
                broken = true
            }
        }
        if broken { throw ExitCode(1) }
    }

    static let header = "stream  chip (driver)         timestamps            rate Hz   first ms (bound)  delivery ms p50 / p99 / max (bound)   jitter % (p99 %)   drops (reported)   dups (reported)"

    static func row(_ stream: StreamTiming) -> String {
        let m = stream.measurement
        func ms(_ nanoseconds: Int64?) -> String { nanoseconds.map { String(format: "%.2f", Double($0) / 1e6) } ?? "-" }
        func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
        func left(_ text: String, _ width: Int) -> String { text.count >= width ? text : String(repeating: " ", count: width - text.count) + text }
        let rate = String(format: "%.1f", 1e9 / Double(stream.contract.samplePeriodNanoseconds))
        let jitter = m.jitter.map { String(format: "%.3f", $0 * 100) } ?? "-"
        let p99 = m.jitterP99.map { String(format: "%.3f", $0 * 100) } ?? "-"
        return pad(stream.channel.displayName, 8) + pad("\(stream.chip.label) (\(stream.chip.driver))", 21) + " " + pad(stream.chip.timestampSource.rawValue, 21)
            + left(rate, 8) + "  " + left(ms(m.firstSampleLatencyNanoseconds), 8) + " (" + ms(stream.contract.firstSampleBound) + ")"
            + "  " + left(ms(m.deliveryLatency(percentile: 0.5)), 7) + " / " + ms(m.deliveryLatency(percentile: 0.99)) + " / "
            + ms(m.maximumDeliveryLatencyNanoseconds) + " (" + ms(stream.contract.deliveryBound) + ")"
            + "  " + left(jitter, 7) + " (" + p99 + ")"
            + "  " + left("\(m.loss.dropped)", 6) + " (\(stream.reported.dropped))" + "  " + left("\(m.loss.duplicated)", 6) + " (\(stream.reported.duplicated))"
    }
}
