// The client side of tools/soak-motiond.sh: CLIENTS connections to motiond, each subscribed to
// the accelerometer, gyroscope and device motion at interval 0 (every sample: the board's
// highest rate), reading for SECONDS; then, per stream, the samples received, the samples
// missing between them (a gap of k periods is k − 1 lost) and the drops motiond reported.
// Exit status 1 if anything was lost or dropped.
//
// usage: motiond-soak SOCKET SECONDS [CLIENTS]
import Glibc
import MotionDaemon
import MotionDaemonProtocol
import Locking

func say(_ line: String, to descriptor: Int32 = 1) {
    _ = "\(line)\n".utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seconds = Double(arguments[2]) else {
    say("usage: motiond-soak SOCKET SECONDS [CLIENTS]", to: 2)
    exit(2)
}
let socketPath = arguments[1]
let clients = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
/// One stream's tally: samples, the period seen (the smallest interval), samples missing in gaps.
struct Tally: Sendable {
    var received = 0
    var lost = 0
    var dropped: UInt64 = 0
    var last: Double?
    var period = 0.01

    mutating func add(_ time: Double) {
        received += 1
        if let last {
            let gap = time - last
            if gap > 1.5 * period { lost += Int((gap / period).rounded()) - 1 }
        }
        last = time
    }
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// What all clients found, filled in by their threads.
final class Report: Sendable {
    let lines = Lock<[String]>([])
    let failures = Lock(0)
}

/// One client's thread's arguments.
final class ClientJob: Sendable {
    let index: Int, socketPath: String, seconds: Double, report: Report
    init(index: Int, socketPath: String, seconds: Double, report: Report) {
        (self.index, self.socketPath, self.seconds, self.report) = (index, socketPath, seconds, report)
    }
}

/// A client's thread (outside top-level code, which is the main actor's: a closure written
/// there would assert it runs on the main thread).
enum ClientThread {
    static func start(_ job: ClientJob) -> pthread_t {
        var thread = pthread_t()
        pthread_create(&thread, nil, { context in
            runClient(Unmanaged<ClientJob>.fromOpaque(context!).takeRetainedValue())
            return nil
        }, Unmanaged.passRetained(job).toOpaque())
        return thread
    }
}

nonisolated func runClient(_ job: ClientJob) {
    let (index, socketPath, seconds) = (job.index, job.socketPath, job.seconds)
    let report = job.report
    let streams: [WireStream] = [.accelerometer, .gyroscope, .deviceMotion]
    do throws(DaemonError) {
        let link = try DaemonLink(path: socketPath, name: "soak \(index)")
        for stream in streams { _ = try link.ask { .subscribe(request: $0, stream: stream, interval: 0, from: 0, frame: 0) } }
        var tallies = [WireStream: Tally]()
        let end = now() + seconds
        while now() < end {
            switch try link.receive() {
            case .samples(let batch):
                var tally = tallies[batch.stream] ?? Tally()
                switch batch {
                case .vectors(_, let samples): for sample in samples { tally.add(sample.time) }
                case .deviceMotion(let samples): for sample in samples { tally.add(sample.time) }
                default: break
                }
                tallies[batch.stream] = tally
            case .dropped(let stream, let count, _):
                tallies[stream, default: Tally()].dropped += count
            default:
                continue
            }
        }
        for stream in streams {
            let tally = tallies[stream] ?? Tally()
            report.lines.withLock { $0.append("client \(index) \(stream.name): \(tally.received) received, \(tally.lost) lost in gaps, \(tally.dropped) dropped (reported)") }
            if tally.lost > 0 || tally.dropped > 0 || tally.received == 0 { report.failures.withLock { $0 += 1 } }
        }
    } catch {
        report.lines.withLock { $0.append("client \(index): \(error)") }
        report.failures.withLock { $0 += 1 }
    }
}

let report = Report()
var threads: [pthread_t] = []
for index in 0..<clients {
    threads.append(ClientThread.start(ClientJob(index: index, socketPath: socketPath, seconds: seconds, report: report)))
}
for thread in threads { pthread_join(thread, nil) }
for line in report.lines.withLock({ $0 }).sorted() { say(line) }
exit(report.failures.withLock { $0 } == 0 ? 0 : 1)
