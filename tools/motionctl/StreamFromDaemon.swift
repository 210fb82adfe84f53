import Foundation
import MotionDaemonClient
import MotionDaemonProtocol

/// `motionctl stream` when motiond serves the system's board (no `--board`, no `--speed`, and
/// `OPENCOREMOTION_NO_DAEMON` unset): the same streams from the daemon instead of a board run
/// in this process, with the same columns (times in seconds since the stream started,
/// accelerometer in m/s² as the in-process listing prints it). A daemon restart is shown as a
/// line, and the stream resumes by itself.
struct StreamFromDaemon {
    let client: DaemonClient
    let start = Date().timeIntervalSince1970

    /// A connection to motiond if it should serve `motionctl stream`.
    static func connect(boardGiven: Bool, speedGiven: Bool) -> DaemonClient? {
        guard !boardGiven, !speedGiven, !DaemonClient.isDisabledByEnvironment else { return nil }
        return try? DaemonClient(name: "motionctl stream")
    }

    /// Subscribes to what `mode` asks and prints until `duration` s have passed (nil: until killed).
    func run(deviceMotion: Bool, pedometer: Bool, activity: Bool, interval: Double, frame: UInt8, duration: Double?) throws {
        let welcome = client.welcome
        print("streaming \(welcome.boardName) via motiond at \(client.path)")
        let every = max(interval, 0.01)
        do {
            if deviceMotion {
                print("       t s   quaternion (w, x, y, z)           gravity g (x, y, z)      user acceleration g      heading°")
                try client.subscribe(.deviceMotion, interval: interval > 0 ? interval : 0.1, frame: frame) { self.show($0) }
            } else if pedometer {
                print("       t s  steps  distance m  cadence steps/s  (pedometer updates; pause/resume events)")
                try client.subscribe(.pedometer, from: start) { self.show($0) }
                try client.subscribe(.pedometerEvents) { self.show($0) }
            } else if activity {
                try client.subscribe(.activity) { self.show($0) }
            } else {
                print("       t s  sensor  x             y             z")
                for (stream, sensor) in [(WireStream.accelerometer, WireSensors.accelerometer), (.gyroscope, .gyroscope), (.magnetometer, .magnetometer)]
                where welcome.sensors.contains(sensor) {
                    try client.subscribe(stream, interval: every) { self.show($0) }
                }
            }
        } catch {
            throw ValidationErrorText("motiond refused the stream: \(error)")
        }
        let end = duration.map { Date().addingTimeInterval($0) } ?? .distantFuture
        while Date() < end { usleep(50_000) }
        client.close()
    }

    private func seconds(_ time: Double) -> String { String(format: "%10.3f", time - start) }

    private func show(_ delivery: StreamDelivery) {
        switch delivery {
        case .samples(.vectors(let stream, let samples)):
            for sample in samples {
                // The in-process listing prints specific force (m/s²); the wire has Core Motion's g.
                let scale = stream == .accelerometer ? -9.80665 : 1
                let name = stream == .accelerometer ? "acc" : stream == .gyroscope ? "gyr" : "mag"
                print("\(seconds(sample.time))  \(name.padding(toLength: 6, withPad: " ", startingAt: 0))"
                      + String(format: "%13.5f %13.5f %13.5f", sample.x * scale, sample.y * scale, sample.z * scale))
            }
        case .samples(.deviceMotion(let samples)):
            for m in samples {
                print(seconds(m.time) + String(format: "   %6.3f %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f   %7.1f",
                                               m.w, m.x, m.y, m.z, m.gravity[0], m.gravity[1], m.gravity[2],
                                               m.userAcceleration[0], m.userAcceleration[1], m.userAcceleration[2], m.heading))
            }
        case .samples(.pedometer(let updates)):
            for u in updates {
                print(seconds(u.end) + String(format: "  %5d  %10.2f  %15.2f", u.steps, u.distance, u.currentCadence ?? 0))
            }
        case .samples(.pedometerEvents(let events)):
            for e in events { print("\(seconds(e.time))  \(e.isResume ? "resume" : "pause")") }
        case .samples(.activity(let updates)):
            for a in updates {
                let names = ["stationary", "walking", "running", "automotive", "cycling", "unknown"].enumerated()
                    .filter { a.flags & (1 << $0.offset) != 0 }.map(\.element)
                print("\(seconds(a.start))  \(names.isEmpty ? "none" : names.joined(separator: "+")) (confidence \(["low", "medium", "high"][min(Int(a.confidence), 2)]))")
            }
        case .samples(.altitude(_, let updates)):
            for u in updates {
                print(seconds(u.time) + String(format: "  relative %8.2f m  %8.3f kPa  absolute %8.1f m ± %.1f", u.relativeAltitude, u.pressure,
                                               u.absoluteAltitude, u.accuracy))
            }
        case .dropped(let count, let total):
            print("motiond dropped \(count) updates this terminal did not read in time (\(total) in all)")
        case .batch, .droppedBatches:
            break  // motionctl stream asks for no batched stream
        case .interrupted(let error):
            print("motiond went away (\(error.message)); reconnecting…")
        case .resumed(let gap):
            print(String(format: "motiond is back: resumed after a %.2f s gap", gap))
        case .ended(let error):
            print("the stream ended: \(error)")
        }
    }
}

/// A message ArgumentParser prints as is.
struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
