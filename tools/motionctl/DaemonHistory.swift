import ArgumentParser
import Foundation
import MotionDaemon
import MotionDaemonProtocol

/// `motionctl history activity|steps|accelerometer`: what motiond kept, as a table or CSV.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show motiond's history: activity, steps, or the recorded 50 Hz accelerometer.",
        discussion: """
            Dates: ISO 8601 (2026-11-23T08:00:00Z, 2026-11-23T08:00:00+01:00, 2026-11-23T08:00
            in local time, 2026-11-23), "now", or relative to now: -90s, -15m, -1h, -2d.
            Pedometer and activity go back 7 days, the accelerometer 3 days.
            """)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case activity, steps, accelerometer
    }

    @Argument(help: "activity, steps or accelerometer.")
    var kind: Kind

    @Option(parsing: .unconditional, help: "Start (default -1h).")
    var from = "-1h"

    @Option(parsing: .unconditional, help: "End (default now).")
    var to = "now"

    @Flag(help: "CSV instead of a table (times in CLOCK_REALTIME seconds).")
    var csv = false

    @Option(help: "motiond's socket (default: $OPENCOREMOTION_SOCKET, else \(Framing.defaultSocketPath)).")
    var socket: String?

    func run() throws {
        let now = Date().timeIntervalSince1970
        guard let start = HistoryDate.parse(from, now: now) else { throw ValidationError("--from \(from): not a date (see --help)") }
        guard let end = HistoryDate.parse(to, now: now) else { throw ValidationError("--to \(to): not a date (see --help)") }
        guard start <= end else { throw ValidationError("--from is after --to") }
        if let error = show(start, end) {
            FileHandle.standardError.write(Data("motionctl history: \(error.message)\n  \(error.advice)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Prints the history of [start, end); what went wrong, or nil.
    private func show(_ start: Double, _ end: Double) -> DaemonError? {
        do throws(DaemonError) {
            let link = try DaemonLink(path: socket ?? DaemonLink.defaultSocketPath, name: "motionctl history")
            switch kind {
            case .steps: try steps(link, start, end)
            case .activity: try activity(link, start, end)
            case .accelerometer: try accelerometer(link, start, end)
            }
            return nil
        } catch {
            return error
        }
    }

    private func steps(_ link: DaemonLink, _ start: Double, _ end: Double) throws(DaemonError) {
        guard case .pedometerData(_, let data) = try link.ask({ .queryPedometer(request: $0, from: start, to: end) }) else { return }
        let floors = { (value: Int?) in value.map(String.init) ?? "" }
        if csv {
            print("start_s,end_s,steps,distance_m,floors_ascended,floors_descended,average_active_pace_s_per_m")
            print(String(format: "%.3f,%.3f,%d,%.3f,", data.start, data.end, data.steps, data.distance)
                  + "\(floors(data.floorsAscended)),\(floors(data.floorsDescended)),\(data.averageActivePace.map { String(format: "%.4f", $0) } ?? "")")
        } else {
            print("\(HistoryDate.text(data.start)) … \(HistoryDate.text(data.end))")
            print("  steps \(data.steps), distance \(String(format: "%.1f", data.distance)) m"
                  + (data.floorsAscended.map { ", floors up \($0) down \(data.floorsDescended ?? 0)" } ?? "")
                  + (data.averageActivePace.map { String(format: ", average active pace %.2f s/m", $0) } ?? ""))
        }
    }

    private func activity(_ link: DaemonLink, _ start: Double, _ end: Double) throws(DaemonError) {
        guard case .activityRecords(_, let records) = try link.ask({ .queryActivity(request: $0, from: start, to: end) }) else { return }
        if csv {
            print("start_s,end_s,flags,activity,confidence")
            for record in records {
                print(String(format: "%.3f,%.3f,%d,", record.start, record.time, record.flags) + "\(Self.activityName(record.flags)),\(record.confidence)")
            }
            return
        }
        print("start                    end                      duration    activity                 confidence")
        for record in records {
            print(HistoryDate.text(record.start).padding(toLength: 25, withPad: " ", startingAt: 0)
                  + HistoryDate.text(record.time).padding(toLength: 25, withPad: " ", startingAt: 0)
                  + String(format: "%8.0f s   ", record.time - record.start)
                  + Self.activityName(record.flags).padding(toLength: 25, withPad: " ", startingAt: 0)
                  + ["low", "medium", "high"][min(2, Int(record.confidence))])
        }
    }

    private func accelerometer(_ link: DaemonLink, _ start: Double, _ end: Double) throws(DaemonError) {
        print(csv ? "time_s,x_g,y_g,z_g,run" : "time                         x g       y g       z g   run")
        var partStart = start
        var count = 0
        let formatter = HistoryDate.formatter(fraction: true)
        while partStart < end {
            let partEnd = min(end, partStart + 12 * 3600)
            let request = try link.send { .queryAccelerometer(request: $0, from: partStart, to: partEnd) }
            var done = false
            while !done {
                let message = try link.receive()
                switch message {
                case .accelerometerData(let number, let isLast, let samples) where number == request:
                    for sample in samples {
                        print(csv ? String(format: "%.6f,%.5f,%.5f,%.5f,%lld", sample.time, sample.x, sample.y, sample.z, sample.run)
                                  : HistoryDate.text(sample.time, formatter) + String(format: " %9.4f %9.4f %9.4f   %lld", sample.x, sample.y, sample.z, sample.run))
                    }
                    count += samples.count
                    done = isLast
                case .error(let number, _, let text, let advice) where number == request || number == 0:
                    throw DaemonError(text, advice: advice)
                default:
                    continue
                }
            }
            partStart = partEnd
        }
        if !csv { print("\(count) samples") }
    }

    static func activityName(_ flags: UInt8) -> String {
        let names = ["stationary", "walking", "running", "automotive", "cycling", "unknown"]
        let set = names.indices.filter { flags & (1 << $0) != 0 }.map { names[$0] }
        return set.isEmpty ? "no call" : set.joined(separator: " ")
    }
}

/// The dates `motionctl history` takes and prints.
enum HistoryDate {
    /// Seconds since 1970 for ISO 8601, "now", or -N{s,m,h,d} relative to `now`.
    static func parse(_ text: String, now: Double) -> Double? {
        if text == "now" { return now }
        if text.hasPrefix("-") || text.hasPrefix("+"), let unit = text.last, let amount = Double(text.dropFirst().dropLast()) {
            let seconds: Double? = switch unit {
            case "s": 1
            case "m": 60
            case "h": 3600
            case "d": 86_400
            default: nil
            }
            guard let seconds else { return nil }
            return now + (text.hasPrefix("-") ? -1 : 1) * amount * seconds
        }
        let withZone = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            withZone.formatOptions = options
            if let date = withZone.date(from: text) { return date.timeIntervalSince1970 }
        }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone.current
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }

    /// Local time as "2026-11-23 08:00:00" (with milliseconds if `fraction`).
    static func formatter(fraction: Bool = false) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = fraction ? "yyyy-MM-dd HH:mm:ss.SSS" : "yyyy-MM-dd HH:mm:ss"
        return formatter
    }

    static func text(_ seconds: Double, _ formatter: DateFormatter = formatter()) -> String {
        formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
