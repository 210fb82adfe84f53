import Foundation
import OpenCoreMotion
import Locking
import MotionEngine
import TestSupport
import Testing

/// What a push handler received, collected from its queue.
final class Received<Data: Sendable>: Sendable {
    private let items = Lock<[Data]>([])
    private let errors = Lock<[any Error]>([])

    func handle(_ data: Data?, _ error: (any Error)?) {
        if let data { items.withLock { $0.append(data) } }
        if let error { errors.withLock { $0.append(error) } }
    }

    var data: [Data] { items.withLock { $0 } }
    var failures: [any Error] { errors.withLock { $0 } }
}

func board(_ name: String) -> String { "\(ProjectPaths.root)/boards/\(name)" }

func uptime() -> Double { ProcessInfo.processInfo.systemUptime }

func serialQueue() -> OperationQueue {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    return queue
}

/// Samples a stream's timestamps (ns) show missing: the timing contract's count, each
/// interval over 1.5 `period`s missing the periods it spans but one. A loaded machine may make
/// the engine late enough to lose samples; the manager must then have reported them.
func missingSamples(_ timestamps: [Int64], period: Int64) -> Int {
    guard let first = timestamps.first else { return 0 }
    var measurement = TimingMeasurement(samplePeriodNanoseconds: period, startNanoseconds: first)
    for time in timestamps { measurement.record(timestampNanoseconds: time, deliveredNanoseconds: time) }
    return measurement.loss.dropped
}

// Live boards run in real time on a 2-core machine: one test at a time keeps the timing honest.
@Suite(.serialized) struct MotionManagerTests {
    @Test func availabilityFollowsTheBoardsChips() {
        let mpu9250 = CMMotionManager(board: board("sim-mpu-9250.board"))
        #expect(mpu9250.boardError == nil)
        #expect(mpu9250.isAccelerometerAvailable && mpu9250.isGyroAvailable && mpu9250.isMagnetometerAvailable)
        #expect(mpu9250.isDeviceMotionAvailable)
        #expect(!mpu9250.isAccelerometerActive && !mpu9250.isDeviceMotionActive)

        let gy521 = CMMotionManager(board: board("sim-gy-521.board"))
        #expect(gy521.isAccelerometerAvailable && gy521.isGyroAvailable && gy521.isDeviceMotionAvailable)
        #expect(!gy521.isMagnetometerAvailable)

        // Relative names resolve from the current directory (the checkout's root under
        // `swift test`) and from its boards folder.
        #expect(CMMotionManager(board: "boards/sim-gy-521.board").boardPath == gy521.boardPath)
        #expect(CMMotionManager(board: "sim-gy-521.board").boardPath == gy521.boardPath)
    }

    /// No board named: the system's board (`SystemBoard`), never a simulated default. Where none
    /// is configured and no IMU answers (CI, this container), every sensor is unavailable and
    /// `boardError` says what to do; on a configured machine, that board.
    @Test func withoutABoardTheSystemsBoardIsUsedNeverASimulatedOne() {
        let manager = CMMotionManager(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(!manager.boardPath.hasSuffix("sim-mpu-9250.board"), "\(manager.boardPath)")
        switch SystemBoard.choose(probe: SystemBoard.probeLinuxBuses) {
        case .unavailable(let message):
            #expect(!manager.isDeviceMotionAvailable && !manager.isAccelerometerAvailable)
            #expect(manager.boardError?.code == .notAvailable && manager.boardError?.message == message, "\(String(describing: manager.boardError))")
            #expect(message.contains("motionctl probe"), "\(message)")
            #expect(CMMotionManager.availableAttitudeReferenceFrames() == [], "the class method asks the system's board too")
        case .file(let path, _):
            print("a system board is configured here (\(path)): the unconfigured case is not checked")
        case .probed:
            #expect(manager.boardError == nil && manager.boardPath.hasPrefix("probed:i2c-"), "\(manager.boardPath)")
        }
    }

    @Test func referenceFramesPerBoard() {
        let all: CMAttitudeReferenceFrame = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical, .xTrueNorthZVertical]
        #expect(CMMotionManager(board: board("sim-mpu-9250.board")).availableAttitudeReferenceFrames == all)
        #expect(CMMotionManager(board: board("sim-gy-521.board")).availableAttitudeReferenceFrames == .xArbitraryZVertical)
        #expect(CMMotionManager.availableAttitudeReferenceFrames() == CMMotionManager().availableAttitudeReferenceFrames)  // the system's board's
        #expect(CMMotionManager(board: board("sim-gy-521.board")).attitudeReferenceFrame == .xArbitraryZVertical)
    }

    @Test func aBoardFileThatCannotBeLoadedHasNoSensorsAndSaysWhy() async throws {
        let manager = CMMotionManager(board: "/nonexistent/imu.board")
        #expect(!manager.isAccelerometerAvailable && !manager.isDeviceMotionAvailable)
        #expect(manager.boardError?.message.contains("/nonexistent/imu.board") == true)
        let received = Received<CMAccelerometerData>()
        manager.startAccelerometerUpdates(to: serialQueue(), withHandler: received.handle)
        #expect(try await eventually { !received.failures.isEmpty })
        #expect(received.data.isEmpty && !manager.isAccelerometerActive)
    }

    @Test func intervalsAreSecondsClampedTo100Hertz() {
        let manager = CMMotionManager(board: board("sim-gy-521.board"))
        manager.accelerometerUpdateInterval = 0.001
        #expect(manager.accelerometerUpdateInterval == 0.01)
        manager.gyroUpdateInterval = 0.25
        #expect(manager.gyroUpdateInterval == 0.25)
        manager.deviceMotionUpdateInterval = -1
        #expect(manager.deviceMotionUpdateInterval == 0.01)
    }

    @Test func pushUpdatesArriveAtTheInterval() async throws {
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        let interval = 0.05
        manager.accelerometerUpdateInterval = interval
        manager.magnetometerUpdateInterval = 0.1
        let accelerometer = Received<CMAccelerometerData>()
        let magnetometer = Received<CMMagnetometerData>()
        let queue = serialQueue()
        let started = uptime()
        manager.startAccelerometerUpdates(to: queue, withHandler: accelerometer.handle)
        manager.startMagnetometerUpdates(to: queue, withHandler: magnetometer.handle)
        #expect(manager.isAccelerometerActive && manager.isMagnetometerActive)
        // 1.5 s of both streams, waited for by count (a loaded machine only makes it longer).
        #expect(try await eventually { accelerometer.data.count >= 30 && magnetometer.data.count >= 15 })
        manager.stopAccelerometerUpdates()
        manager.stopMagnetometerUpdates()
        try await drain(queue)
        let stopped = uptime()

        let samples = accelerometer.data
        #expect(accelerometer.failures.isEmpty && magnetometer.failures.isEmpty)
        // Timestamps: seconds on the uptime clock (within a minute of the test: a clock
        // domain check, not a latency one), increasing, at the interval: every step at least
        // most of an interval (never faster than asked), and the steps that span more than 1.5
        // intervals all samples reported lost or dropped.
        let times = samples.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        if let first = times.first, let last = times.last {
            #expect(first > started - 60 && last <= stopped, "samples \(first)…\(last), test \(started)…\(stopped)")
        }
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 > interval * 0.75 }, "a step under the interval")
        let missing = missingSamples(samples.map(\.timestampNanoseconds), period: Int64(interval * 1e9))
        let reported = manager.lostAccelerometerSamples + manager.droppedAccelerometerUpdates
        #expect(missing <= reported, "\(missing) updates missing, \(reported) samples reported lost or dropped")
        // Core Motion's units and sign: about 1 g, and the recording starts face up (−1 g on z).
        if let first = samples.first {
            let a = first.acceleration
            #expect(abs((a.x * a.x + a.y * a.y + a.z * a.z).squareRoot() - 1) < 0.2)
            #expect(a.z < -0.8, "\(a)")
        }
        if let field = magnetometer.data.first?.magneticField {
            let strength = (field.x * field.x + field.y * field.y + field.z * field.z).squareRoot()
            #expect(strength > 10 && strength < 120, "\(strength) µT")
        }
    }

    @Test func pullUpdatesKeepTheLatestSample() async throws {
        let manager = CMMotionManager(board: board("sim-gy-521.board"))
        #expect(manager.gyroData == nil)
        manager.gyroUpdateInterval = 0.02
        manager.startGyroUpdates()
        manager.startAccelerometerUpdates()
        #expect(manager.isGyroActive)
        #expect(try await eventually { manager.gyroData != nil && manager.accelerometerData != nil })
        let first = try #require(manager.gyroData).timestamp
        #expect(try await eventually { (manager.gyroData?.timestamp ?? 0) > first + 0.1 }, "the latest sample replaced")
        let later = try #require(manager.gyroData).timestamp
        #expect(abs(later - uptime()) < 60, "on the uptime clock")  // a clock domain check, not a latency one
        manager.stopGyroUpdates()
        manager.stopAccelerometerUpdates()
        #expect(!manager.isGyroActive)
        #expect(manager.gyroData != nil)  // the last sample stays
    }

    @Test func deviceMotionGravityPointsDownForABoardAtRest() async throws {
        // The simulated MPU-9250's recording starts lying still, face up.
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        manager.deviceMotionUpdateInterval = 0.02
        let received = Received<CMDeviceMotion>()
        let queue = serialQueue()
        manager.startDeviceMotionUpdates(to: queue, withHandler: received.handle)
        #expect(manager.isDeviceMotionActive && manager.attitudeReferenceFrame == .xArbitraryZVertical)
        #expect(try await eventually { received.data.count >= 40 })  // 0.8 s of fusion
        manager.stopDeviceMotionUpdates()
        try await drain(queue)
        let motions = received.data
        #expect(received.failures.isEmpty)
        let last = try #require(motions.last)
        let g = last.gravity
        #expect(abs((g.x * g.x + g.y * g.y + g.z * g.z).squareRoot() - 1) < 0.01)
        #expect(g.z < -0.95, "gravity \(g)")
        let user = last.userAcceleration
        #expect((user.x * user.x + user.y * user.y + user.z * user.z).squareRoot() < 0.1, "user acceleration \(user)")
        // Level: roll and pitch near 0; heading undefined in an arbitrary frame.
        #expect(abs(last.attitude.roll) < 0.1 && abs(last.attitude.pitch) < 0.1, "\(last.attitude)")
        #expect(last.heading < 0)
        #expect(last.attitudeReferenceFrame == .xArbitraryZVertical)
        let q = last.attitude.quaternion
        #expect(abs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) < 1e-6)
    }

    @Test func northFramesGiveAHeading() async throws {
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical)
        #expect(manager.attitudeReferenceFrame == .xMagneticNorthZVertical)
        #expect(try await eventually { manager.deviceMotion.map { $0.heading >= 0 } ?? false })
        let motion = try #require(manager.deviceMotion)
        #expect(motion.heading < 360 && motion.attitudeReferenceFrame == .xMagneticNorthZVertical)
        manager.stopDeviceMotionUpdates()
    }

    @Test func missingSensorsAreErrorsNamingTheBoardAndTheSensor() async throws {
        let manager = CMMotionManager(board: board("sim-gy-521.board"))
        let magnetometer = Received<CMMagnetometerData>()
        manager.startMagnetometerUpdates(to: serialQueue(), withHandler: magnetometer.handle)
        #expect(try await eventually { !magnetometer.failures.isEmpty })
        let error = try #require(magnetometer.failures.first as? CMError)
        #expect(error.code == .notAvailable)
        #expect(error.message.contains("sim-gy-521.board") && error.message.contains("no magnetometer"), "\(error)")
        #expect(magnetometer.data.isEmpty && !manager.isMagnetometerActive)

        let motion = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: serialQueue(), withHandler: motion.handle)
        #expect(try await eventually { !motion.failures.isEmpty })
        let frameError = try #require(motion.failures.first as? CMError)
        #expect(frameError.code == .notAvailable && frameError.message.contains("xMagneticNorthZVertical"), "\(frameError)")
        #expect(!manager.isDeviceMotionActive)

        // Two frames at once are not one frame.
        let both = Received<CMDeviceMotion>()
        CMMotionManager(board: board("sim-mpu-9250.board")).startDeviceMotionUpdates(
            using: [.xArbitraryZVertical, .xMagneticNorthZVertical], to: serialQueue(), withHandler: both.handle)
        #expect(try await eventually { !both.failures.isEmpty })
        #expect((both.failures.first as? CMError)?.code == .invalidParameter)

        // Pull updates of a missing sensor do nothing.
        manager.startMagnetometerUpdates()
        #expect(!manager.isMagnetometerActive && manager.magnetometerData == nil)
    }

    @Test func stopStops() async throws {
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        let received = Received<CMGyroData>()
        let queue = serialQueue()
        manager.startGyroUpdates(to: queue, withHandler: received.handle)
        #expect(try await eventually { received.data.count >= 5 })
        manager.stopGyroUpdates()
        #expect(!manager.isGyroActive)
        try await drain(queue)
        let count = received.data.count
        try await Task.sleep(for: .milliseconds(300))
        try await drain(queue)
        #expect(received.data.count == count)
    }

    @Test func aSlowHandlerDropsUpdatesInsteadOfSlowingTheEngine() async throws {
        let manager = CMMotionManager(board: board("sim-gy-521.board"))
        manager.accelerometerUpdateInterval = 0.01
        let handled = Lock(0)
        let queue = serialQueue()
        manager.startAccelerometerUpdates(to: queue) { _, _ in
            Thread.sleep(forTimeInterval: 0.02)  // twice as slow as the stream
            handled.withLock { $0 += 1 }
        }
        // Pull state keeps up with the board while the handler lags: its sample moves on by
        // more than the handler could have seen; updates are dropped once maxPendingUpdates wait
        // (the queue grows by 50 a second: after 4 s).
        #expect(try await eventually { manager.accelerometerData != nil })
        let first = try #require(manager.accelerometerData).timestamp
        #expect(try await eventually { (manager.accelerometerData?.timestamp ?? 0) > first + 5 && manager.droppedAccelerometerUpdates > 20 },
                "pull sample \((manager.accelerometerData?.timestamp ?? 0) - first) s on, \(manager.droppedAccelerometerUpdates) dropped")
        manager.stopAccelerometerUpdates()
        let handledAtStop = handled.withLock { $0 }
        try await drain(queue)
        // After stop, at most the updates already queued run: the engine never queued more
        // than maxPendingUpdates for the lagging handler.
        #expect(handled.withLock { $0 } <= handledAtStop + CMMotionManager.maxPendingUpdates)
    }

    @Test func managersOfOneBoardShareItsEngine() async throws {
        let first = CMMotionManager(board: board("sim-mpu-9250.board"))
        let second = CMMotionManager(board: "boards/sim-mpu-9250.board")
        first.startAccelerometerUpdates()
        second.startAccelerometerUpdates()
        #expect(try await eventually { first.accelerometerData != nil && second.accelerometerData != nil })
        first.stopAccelerometerUpdates()
        let before = try #require(second.accelerometerData).timestamp
        #expect(try await eventually { (second.accelerometerData?.timestamp ?? 0) > before })  // still running for the other
        second.stopAccelerometerUpdates()
    }
}
