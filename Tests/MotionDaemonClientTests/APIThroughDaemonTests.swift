import Foundation
import OpenCoreMotion
import Locking
import Testing
import TestSupport

/// The Swift API on motiond: the same classes, the same shape of data as in-process, history
/// from the daemon's store across a restart, and the in-process engine when no daemon answers.
@Suite(.serialized, .blocking) struct APIThroughDaemonTests {
    /// Device motion and the accelerometer from the daemon look like the in-process engine's:
    /// unit quaternions, |gravity| = 1 g, the walker's accelerometer around 1 g, timestamps on
    /// CLOCK_MONOTONIC near now, at the interval asked.
    @Test func deviceMotionThroughTheDaemonHasTheInProcessShape() throws {
        let daemon = try Motiond("motion")
        defer { daemon.remove() }
        try daemon.start()
        let viaDaemon = CMMotionManager(daemonSocket: daemon.socket)
        #expect(viaDaemon.isUsingDaemon && viaDaemon.backendDescription == "via motiond at \(daemon.socket)")
        #expect(viaDaemon.boardPath.hasSuffix("boards/sim-walker.board"), "\(viaDaemon.boardPath)")
        #expect(viaDaemon.isDeviceMotionAvailable && viaDaemon.isAccelerometerAvailable && !viaDaemon.isMagnetometerAvailable)
        // The daemon's own board file, named explicitly, is served by the daemon too; another runs in-process.
        #expect(CMMotionManager(board: "sim-walker.board", daemonSocket: daemon.socket).isUsingDaemon)
        let other = CMMotionManager(board: "sim-gy-521.board", daemonSocket: daemon.socket)
        #expect(!other.isUsingDaemon && other.backendDescription == "in-process engine")

        let inProcess = CMMotionManager(board: "sim-walker.board", daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(!inProcess.isUsingDaemon)
        let queue = OperationQueue()
        let daemonMotion = Collected<CMDeviceMotion>(), localMotion = Collected<CMDeviceMotion>()
        for (manager, into) in [(viaDaemon, daemonMotion), (inProcess, localMotion)] {
            manager.deviceMotionUpdateInterval = 0.05
            manager.startDeviceMotionUpdates(to: queue) { motion, error in
                #expect(error == nil)
                if let motion { into.append(motion) }
            }
        }
        #expect(eventually(within: 8) { daemonMotion.count >= 40 && localMotion.count >= 40 })
        viaDaemon.stopDeviceMotionUpdates()
        inProcess.stopDeviceMotionUpdates()
        let now = ProcessInfo.processInfo.systemUptime
        for (name, samples) in [("daemon", daemonMotion.all), ("in-process", localMotion.all)] {
            let q = samples.map(\.attitude.quaternion)
            #expect(q.allSatisfy { abs($0.w * $0.w + $0.x * $0.x + $0.y * $0.y + $0.z * $0.z - 1) < 1e-3 }, "\(name)")
            #expect(samples.allSatisfy { abs(($0.gravity.x * $0.gravity.x + $0.gravity.y * $0.gravity.y + $0.gravity.z * $0.gravity.z).squareRoot() - 1) < 0.02 }, "\(name)")
            let times = samples.map(\.timestamp)
            #expect(times.allSatisfy { abs($0 - now) < 15 }, "\(name): timestamps on CLOCK_MONOTONIC, near now")
            let mean = (times.last! - times.first!) / Double(times.count - 1)
            print("\(name): \(samples.count) device-motion updates, mean interval \(String(format: "%.4f", mean)) s")
            #expect(abs(mean - 0.05) < 0.01, "\(name): \(mean) s between updates")
        }
        // The pull interface too.
        viaDaemon.startAccelerometerUpdates()
        #expect(eventually(within: 3) { viaDaemon.accelerometerData != nil })
        let g = viaDaemon.accelerometerData!.acceleration
        #expect(abs((g.x * g.x + g.y * g.y + g.z * g.z).squareRoot() - 1) < 0.6, "\(g)")
        viaDaemon.stopAccelerometerUpdates()
    }

    /// A pedometer and an activity manager on the daemon: live steps while the walker walks and
    /// a walking transition; then motiond restarts: a fresh pedometer's query of the same range
    /// answers the same steps from the daemon's persistent history, and a pedometer that kept
    /// streaming across the restart goes on counting from its start (the new daemon's live
    /// count plus the history it stored before), never backwards.
    @Test func pedometerAndActivityThroughTheDaemonAndHistoryAcrossARestart() throws {
        let daemon = try Motiond("pedometer")
        defer { daemon.remove() }
        let start = Date()
        try daemon.start()
        let pedometer = CMPedometer(daemonSocket: daemon.socket)
        let activity = CMMotionActivityManager(daemonSocket: daemon.socket)
        #expect(pedometer.isUsingDaemon && activity.isUsingDaemon)
        #expect(pedometer.isStepCountingAvailable && pedometer.isFloorCountingAvailable && activity.isActivityAvailable)
        let updates = Collected<CMPedometerData>(), activities = Collected<CMMotionActivity>()
        let continuing = CMPedometer(daemonSocket: daemon.socket)
        let continuingUpdates = Collected<CMPedometerData>()
        continuing.startUpdates(from: start) { data, _ in if let data { continuingUpdates.append(data) } }
        defer { continuing.stopUpdates() }
        pedometer.startUpdates(from: start) { data, error in
            #expect(error == nil)
            if let data { updates.append(data) }
        }
        activity.startActivityUpdates(to: OperationQueue()) { if let update = $0 { activities.append(update) } }
        #expect(eventually(within: 20) { (updates.all.last?.numberOfSteps.intValue ?? 0) >= 10 && activities.all.contains(where: \.walking) })
        pedometer.stopUpdates()
        activity.stopActivityUpdates()
        let last = updates.all.last!
        #expect(last.startDate == start || abs(last.startDate.timeIntervalSince(start)) < 0.001)
        #expect(last.distance!.doubleValue > 4 && last.currentCadence != nil)
        let end = Date()
        let before = try query(pedometer, from: start, to: end)
        let walks = try queryActivity(activity, from: start, to: end)
        print("through motiond: \(updates.count) updates, last \(last.numberOfSteps) steps; query \(before.numberOfSteps) steps, activity \(walks.map(\.activityNames))")
        #expect(walks.contains { $0.walking })

        daemon.stop()
        try daemon.start()
        let fresh = CMPedometer(daemonSocket: daemon.socket)
        let after = try query(fresh, from: start, to: end)
        #expect(after.numberOfSteps == before.numberOfSteps && after.distance == before.distance)
        #expect(after.numberOfSteps.intValue >= 10)
        // The streaming pedometer reconnected and its next update still counts from `start`.
        let beforeRestart = continuingUpdates.count
        #expect(eventually(within: 10) { continuing.daemonGaps.count == 1 && continuingUpdates.count > beforeRestart })
        let resumed = continuingUpdates.all.last!
        print("across the restart: \(continuingUpdates.all.map(\.numberOfSteps.intValue)) steps, gap \(continuing.daemonGaps)")
        #expect(resumed.numberOfSteps.intValue >= before.numberOfSteps.intValue && resumed.startDate == continuingUpdates.all[0].startDate)
    }

    /// A motion manager streaming through motiond while it is killed and started again half a
    /// second later: the handler gets updates again without any call, and the gap is counted
    /// in `droppedAccelerometerUpdates` (gap ÷ interval), never silent.
    @Test func aMotionManagerResumesAfterARestartAndCountsTheGap() throws {
        let daemon = try Motiond("api-restart")
        defer { daemon.remove() }
        try daemon.start()
        let manager = CMMotionManager(daemonSocket: daemon.socket)
        let received = Collected<Double>()
        manager.accelerometerUpdateInterval = 0.02
        manager.startAccelerometerUpdates(to: OperationQueue()) { data, _ in if let data { received.append(data.timestamp) } }
        defer { manager.stopAccelerometerUpdates() }
        #expect(eventually(within: 5) { received.count >= 10 })
        daemon.stop(signal: SIGKILL)
        usleep(500_000)
        let before = received.count
        try daemon.start()
        #expect(eventually(within: 10) { received.count >= before + 10 })
        print("API restart: \(manager.droppedAccelerometerUpdates) accelerometer updates counted as dropped over the gap")
        // The gap's updates are counted (its length, 0.5 s down and however long a loaded
        // machine takes to restart motiond and reconnect, is not bounded here); updates dropped
        // for a slow queue are counted too, so this is a lower bound.
        let gaps = manager.daemonGaps
        #expect(gaps.count == 1, "\(gaps)")
        #expect(manager.droppedAccelerometerUpdates >= max(20, Int((gaps.first ?? 0) / 0.02) - 1), "\(manager.droppedAccelerometerUpdates) for a gap of \(gaps) s")
        #expect(manager.isAccelerometerActive)
        #expect(manager.daemonGaps.count == 1 && manager.daemonGaps.allSatisfy { $0 >= 0.5 }, "\(manager.daemonGaps)")
    }

    /// `motionctl stream` says where its data comes from: motiond at the socket in
    /// OPENCOREMOTION_SOCKET, or the in-process engine when OPENCOREMOTION_NO_DAEMON=1.
    @Test func motionctlStreamSaysWhichBackendServes() throws {
        let daemon = try Motiond("motionctl")
        defer { daemon.remove() }
        try daemon.start()
        let viaDaemon = try motionctl(["stream", "--interval", "0.5", "--duration", "1"], environment: ["OPENCOREMOTION_SOCKET": daemon.socket])
        #expect(viaDaemon.hasPrefix("streaming simulated walker via motiond at \(daemon.socket)\n"), "\(viaDaemon)")
        #expect(viaDaemon.contains("acc "), "\(viaDaemon)")
        let forced = try motionctl(["stream", "--interval", "0.5", "--duration", "1"],
                                   environment: ["OPENCOREMOTION_SOCKET": daemon.socket, "OPENCOREMOTION_NO_DAEMON": "1"])
        #expect(forced.hasPrefix("streaming simulated GY-521") && forced.contains("(in-process engine)"), "\(forced)")
    }

    /// No daemon at the socket: the same calls run the board in this process.
    @Test func withoutADaemonTheInProcessEngineServes() throws {
        let pedometer = CMPedometer(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(!pedometer.isUsingDaemon && pedometer.backendDescription == "in-process engine")
        #expect(!pedometer.boardPath.hasSuffix("sim-mpu-9250.board"), "the system's board, never a simulated default: \(pedometer.boardPath)")
        let recorder = CMSensorRecorder(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(!recorder.core.isAvailable)
        recorder.recordAccelerometer(forDuration: 10)
        #expect(recorder.lastError?.code == .notAvailable)
        #expect(recorder.lastError?.localizedDescription.contains("needs motiond") == true, "\(String(describing: recorder.lastError))")
    }

    /// A user the policy denies: the APIs use the daemon anyway (no bypass to the devices) and
    /// every start and query fails with `notAuthorized` saying what to do.
    @Test func aDeniedUserGetsNotAuthorizedFromTheAPIs() throws {
        let daemon = try Motiond("api-deny", policy: "deny \(getuid())\n")
        defer { daemon.remove() }
        try daemon.start()
        let pedometer = CMPedometer(daemonSocket: daemon.socket)
        #expect(pedometer.isUsingDaemon)
        let error = #expect(throws: CMError.self) { try query(pedometer, from: Date().addingTimeInterval(-60), to: Date()) }
        #expect(error?.code == .notAuthorized)
        #expect(error?.localizedDescription.contains("administrator") == true, "\(String(describing: error))")
        let recorder = CMSensorRecorder(daemonSocket: daemon.socket)
        recorder.recordAccelerometer(forDuration: 60)
        #expect(recorder.lastError?.code == .notAuthorized)
    }

    /// CMSensorRecorder: samples at 50 Hz in g with one continuity identifier; after a daemon
    /// restart the samples across the gap carry two identifiers.
    @Test func sensorRecorderReturnsSamplesWithContinuityIdentifiers() throws {
        let daemon = try Motiond("recorder")
        defer { daemon.remove() }
        let start = Date()
        try daemon.start()
        let recorder = CMSensorRecorder(daemonSocket: daemon.socket)
        #expect(recorder.core.isAvailable)
        let until = try recorder.startRecordingAccelerometer(forDuration: 3600)
        #expect(abs(until.timeIntervalSinceNow - 3600) < 60)
        #expect(throws: CMError.self) { try recorder.startRecordingAccelerometer(forDuration: 13 * 3600) }
        // At least a second of samples, waited for by count (a loaded machine only takes longer).
        var recorded: [CMRecordedAccelerometerData]?
        _ = eventually(within: 60) {
            recorded = recorder.accelerometerData(from: start, to: Date()).map { Array(IteratorSequence(NSFastEnumerationIterator($0))).compactMap { $0 as? CMRecordedAccelerometerData } }
            return (recorded?.count ?? 0) >= 50
        }
        let list = try #require(recorded)
        #expect(recorder.lastError == nil)
        #expect(list.count >= 50, "\(list.count) samples")
        #expect(Set(list.map(\.identifier)).count == 1)
        let span = list.last!.startDate.timeIntervalSince(list.first!.startDate)
        let rate = Double(list.count - 1) / span
        #expect(abs(rate - 50) < 2, "\(rate) Hz")
        #expect(list.allSatisfy { abs(($0.acceleration.x * $0.acceleration.x + $0.acceleration.y * $0.acceleration.y + $0.acceleration.z * $0.acceleration.z).squareRoot() - 1) < 0.6 })
        #expect(zip(list, list.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp && $0.startDate < $1.startDate })

        daemon.stop()
        usleep(2_000_000)  // a restart as systemd makes it (RestartSec=2)
        try daemon.start()
        // The recorder's own connection comes back by itself; the new daemon's samples are a
        // second run once its first commit is stored (a second; longer on a loaded machine).
        var across: [CMRecordedAccelerometerData] = []
        _ = eventually(within: 10) {
            across = (try? recorder.recordedAccelerometerData(from: start, to: Date())) ?? across
            return Set(across.map(\.identifier)).count >= 2
        }
        let runs = Set(across.map(\.identifier))
        print("recorder: \(list.count) samples in the first run, \(across.count) across a restart, runs \(runs.count)")
        #expect(runs.count == 2)
    }
}

private func query(_ pedometer: CMPedometer, from start: Date, to end: Date) throws -> CMPedometerData {
    let answer = Lock<Result<CMPedometerData, any Error>?>(nil)
    pedometer.queryPedometerData(from: start, to: end) { data, error in
        answer.withLock { $0 = data.map { .success($0) } ?? .failure(error ?? ClientTestError("no data, no error")) }
    }
    guard eventually(within: 10, { answer.withLock { $0 != nil } }) else { throw ClientTestError("no answer to a pedometer query") }
    return try answer.withLock { $0! }.get()
}

private func queryActivity(_ manager: CMMotionActivityManager, from start: Date, to end: Date) throws -> [CMMotionActivity] {
    let answer = Lock<Result<[CMMotionActivity], any Error>?>(nil)
    manager.queryActivityStarting(from: start, to: end, to: OperationQueue()) { records, error in
        answer.withLock { $0 = records.map { .success($0) } ?? .failure(error ?? ClientTestError("no records, no error")) }
    }
    guard eventually(within: 10, { answer.withLock { $0 != nil } }) else { throw ClientTestError("no answer to an activity query") }
    return try answer.withLock { $0! }.get()
}

/// Runs the built motionctl with `arguments` and extra `environment`; its standard output.
private func motionctl(_ arguments: [String], environment: [String: String]) throws -> String {
    let process = Process()
    process.executableURL = Motiond.productsFolder.appendingPathComponent("motionctl")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ClientTestError("motionctl \(arguments) exited with \(process.terminationStatus): \(text)") }
    return text
}
