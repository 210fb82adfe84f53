import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// The history motiond keeps: steps and activity answered the same across a restart, and a
/// `kill -9` at random moments never loses what a query had already been answered from.
@Suite(.serialized, .blocking) struct HistoryTests {
    /// The walker stands 2 s, walks 18 steps in 10 s, stands 8 s (6 s, then the next cycle's
    /// 2 s): 19 s into its cycle there are steps, a walk and a stand longer than the history's
    /// 5 s blips; a query of that range gives the same after a restart, and the stored samples
    /// are 50 Hz with one continuity run.
    @Test func stepsAndActivityAreAnsweredTheSameAcrossARestart() throws {
        let daemon = try DaemonProcess("restart")
        defer { daemon.remove() }
        let start = wallSeconds
        try daemon.start()
        let before = try daemon.connect("before")
        // The cycle runs from the board's start, which a loaded machine (a sanitizer build
        // beside other work) delays by seconds after the process's: the range ends 19 s after
        // the first stored sample, not 19 s after the launch, so the final stand is never cut
        // under the 5 s a stand needs to be kept. (The history commits once a second: poll.)
        var firstSample = try before.accelerometer(from: start, to: wallSeconds).first?.time
        while firstSample == nil, wallSeconds - start < 60 {
            usleep(200_000)
            firstSample = try before.accelerometer(from: start, to: wallSeconds).first?.time
        }
        let end = try #require(firstSample, "no sample stored within 60 s of the launch") + 19
        if end > wallSeconds { usleep(UInt32((end - wallSeconds) * 1e6)) }
        let steps = try before.pedometer(from: start, to: end)
        let activity = try before.activity(from: start, to: end)
        let samples = try before.accelerometer(from: start, to: end)
        // A client streaming when the daemon stops hears the connection close (its library
        // reconnects), it does not hang; the daemon exits 0 with the history committed.
        try before.subscribe(.accelerometer, interval: 0.1)
        #expect(daemon.stop() == 0)
        var closed: DaemonError?
        while closed == nil {
            do { _ = try before.receive() } catch { closed = error }
        }
        #expect(closed?.message.contains("closed") == true, "\(String(describing: closed))")
        // A restart as systemd makes it (RestartSec=2); QuickRestartTests restarts at once.
        usleep(2_000_000)
        try daemon.start()
        let after = try daemon.connect("after")
        print("restart: \(steps.steps) steps, \(String(format: "%.2f", steps.distance)) m; activity \(activity.map { "\($0.flags)@\(String(format: "%.1f", $0.start - start))" }); \(samples.count) samples")
        #expect(steps.steps >= 12 && steps.steps <= 20, "\(steps.steps) steps in the walker's first bout")
        #expect(activity.contains { $0.flags & 2 != 0 }, "a walk is in the activity history")
        #expect(try after.pedometer(from: start, to: end) == steps)
        // The record that was ongoing (ending "now") ends later after the restart; the rest are equal.
        let activityAfter = try after.activity(from: start, to: end)
        #expect(activityAfter.dropLast().elementsEqual(activity.dropLast()), "\(activityAfter) vs \(activity)")
        #expect(activityAfter.map(\.flags) == activity.map(\.flags) && activityAfter.last?.start == activity.last?.start)
        #expect(activity.map(\.flags) == [1, 2, 1], "stationary, walking, stationary")
        #expect(try after.accelerometer(from: start, to: end) == samples)
        // 50 Hz, one run, from shortly after start.
        let times = samples.map(\.time)
        let rate = Double(times.count - 1) / ((times.last ?? 0) - (times.first ?? 0))
        #expect(abs(rate - 50) < 1, "\(rate) Hz")
        #expect(Set(samples.map(\.run)).count == 1)
        // The restart's gap starts a new run, once the new daemon has stored its first samples
        // (a commit a second; on a loaded machine the first can take longer).
        var across = try after.accelerometer(from: start, to: wallSeconds)
        for _ in 0..<50 where Set(across.map(\.run)).count < 2 {
            usleep(200_000)
            across = try after.accelerometer(from: start, to: wallSeconds)
        }
        #expect(Set(across.map(\.run)).count == 2, "runs \(Set(across.map(\.run))), \(across.count) samples, last at \((across.last?.time ?? 0) - start) s, now \(wallSeconds - start) s")
        // 24 "hourly" slices of the range add up to the whole.
        let slice = (end - start) / 24
        let sum = try (0..<24).map { try after.pedometer(from: start + Double($0) * slice, to: start + Double($0 + 1) * slice).steps }.reduce(0, +)
        #expect(sum == steps.steps)
        // A live pedometer stream from before the restart counts the stored steps too.
        try after.subscribe(.pedometer, interval: 0, from: start)
        var live: PedometerSample?
        while live == nil {
            if case .samples(.pedometer(let updates)) = try after.receive() { live = updates.first }
        }
        #expect(live.map { $0.steps >= steps.steps && $0.start == start } == true, "\(String(describing: live)) after \(steps.steps) stored")
    }

    /// motiond killed with SIGKILL at random moments, eight times: every query answer given
    /// before a kill is given identically after the restart (queries commit first, so what a
    /// client was told had been stored).
    @Test func killingMotiondAtRandomMomentsLosesNothingItReportedStored() throws {
        let daemon = try DaemonProcess("kill")
        defer { daemon.remove() }
        var random = SystemRandomNumberGenerator()
        let origin = wallSeconds
        var answers: [(to: Double, samples: [RecordedSample], steps: PedometerSample)] = []
        for _ in 0..<8 {
            try daemon.start()
            usleep(UInt32.random(in: 300_000...1_500_000, using: &random))
            let link = try daemon.connect("kill loop")
            let to = wallSeconds
            answers.append((to, try link.accelerometer(from: origin, to: to), try link.pedometer(from: origin, to: to)))
            usleep(UInt32.random(in: 0...700_000, using: &random))
            #expect(daemon.stop(signal: SIGKILL) == SIGKILL)
        }
        try daemon.start()
        let link = try daemon.connect("after the kills")
        var lost = 0
        for answer in answers {
            let now = try link.accelerometer(from: origin, to: answer.to)
            if now != answer.samples { lost += 1 }
            #expect(now == answer.samples, "\(answer.samples.count) samples answered before a kill, \(now.count) after")
            #expect(try link.pedometer(from: origin, to: answer.to) == answer.steps)
        }
        // A kill in the middle of a write leaves a torn tail: it is reported when reopened, never served.
        let torn = daemon.log.components(separatedBy: "torn tail").count - 1
        print("kill -9 loop: 8 kills; \(answers.map(\.samples.count)) samples answered before each, \(lost) answers changed after; \(torn) torn tails dropped")
    }
}
