import Foundation
import OpenCoreMotion
import Locking
import TestSupport
import Testing

// The code of Apple's Core Motion talks, written as an iOS (or watchOS) developer writes it:
// each program below keeps the talk's names and structure and compiles against OpenCoreMotion
// with only the import changed, except for one line per manager: the tests name a simulated
// board (`CMMotionManager(board:)`) where the app writes `CMMotionManager()` and gets the
// system's board (docs/swift-api.md, "the system's board"). UIKit, SpriteKit and WatchKit, which
// the talks' apps also use, are not Core Motion: where a program needs them, a comment says what
// stands in for them. This package turns on the ExistentialAny upcoming feature, so existential
// types are spelled `any P` where the talks, in plain Swift 6, write `P`. The tests drive each
// program on a simulated board and check what it counted, never how fast.

// MARK: - Simulated motion for the programs

/// A device's motion at time t (s): specific force in m/s² and angular velocity in rad/s,
/// device axes, as the recording format holds them (lying face up: acceleration (0, 0, +9.81)).
typealias Motion = (acceleration: (Double, Double, Double), rotation: (Double, Double, Double))

/// A simulated BMI160 (±8 g, ±1000 °/s: a tennis swing's 8 rad/s fits) feeling `motion` for
/// `seconds`, written as a recording (200 rows a second) beside a board file of its own in a
/// fresh folder: its own engine in this process, its board time starting when the first
/// manager of it brings it up. The recording starts over when it ends.
func motionBoard(_ name: String, seconds: Double, _ motion: (Double) -> Motion) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocm-talks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var csv = "# ocm-recording 1\n# device: a synthetic \(name) for the talks' programs\n# rate.acc: 200\n# rate.gyr: 200\nt,sensor,x,y,z\n"
    for row in 0..<Int(seconds * 200) {
        let t = Double(row) / 200
        let (a, w) = motion(t)
        csv += String(format: "%.6f,acc,%.5f,%.5f,%.5f\n%.6f,gyr,%.6f,%.6f,%.6f\n", t, a.0, a.1, a.2, t, w.0, w.1, w.2)
    }
    let recording = folder.appendingPathComponent("\(name).csv").path
    try csv.write(toFile: recording, atomically: true, encoding: .utf8)
    let path = folder.appendingPathComponent("\(name).board").path
    try """
    board = simulated \(name)

    [chip imu]
    driver = bmi160
    bus = emulated
    address = 0x68
    rate = 100
    motion = \(recording)

    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

let standardGravity = 9.80665

/// Lying still, face up.
func resting(_ t: Double) -> Motion { ((0, 0, standardGravity), (0, 0, 0)) }

/// A half sine from `start` lasting `duration`, peaking at `peak` (0 outside).
func halfSine(_ t: Double, start: Double, duration: Double, peak: Double) -> Double {
    (start..<start + duration).contains(t) ? peak * sin(Double.pi * (t - start) / duration) : 0
}

/// A full sine period from `start` lasting `duration` (up, then down: back to rest).
func fullSine(_ t: Double, start: Double, duration: Double, peak: Double) -> Double {
    (start..<start + duration).contains(t) ? peak * sin(2 * Double.pi * (t - start) / duration) : 0
}

/// A watch on a right wrist, face up, 12 s: still for 2 s, a forehand at 2 s, a backhand at 5 s
/// and a forehand at 8 s, each a turn about the vertical peaking at 8 rad/s for 0.5 s (2.5 rad:
/// a real swing's), then still. Turning about the vertical leaves gravity where it is, so the
/// accelerometer stays at rest. A forehand turns the right wrist counter-clockwise seen from
/// above (+z on a face-up watch), a backhand clockwise.
func tennisSwings(_ t: Double) -> Motion {
    let rate = halfSine(t, start: 2, duration: 0.5, peak: 8) + halfSine(t, start: 5, duration: 0.5, peak: -8)
        + halfSine(t, start: 8, duration: 0.5, peak: 8)
    return ((0, 0, standardGravity), (0, 0, rate))
}

/// A phone held flat, 10 s: still 2 s, rolled 20° right over 1 s (about its y axis), held a
/// second, rolled back over 1 s, still; lifted at 6 s (0.6 g up then down over 0.4 s: a jump)
/// and lowered at 8 s (the opposite: a duck). The accelerometer sees gravity turn with the roll
/// (rotation about the device's own origin adds no acceleration of its own).
func badgerMoves(_ t: Double) -> Motion {
    let tilt = 20 * Double.pi / 180
    let angle: Double, rate: Double
    switch t {
    case 2..<3: (angle, rate) = (tilt * (1 - cos(Double.pi * (t - 2))) / 2, tilt * Double.pi * sin(Double.pi * (t - 2)) / 2)
    case 3..<4: (angle, rate) = (tilt, 0)
    case 4..<5: (angle, rate) = (tilt * (1 + cos(Double.pi * (t - 4))) / 2, -tilt * Double.pi * sin(Double.pi * (t - 4)) / 2)
    default: (angle, rate) = (0, 0)
    }
    let up = fullSine(t, start: 6, duration: 0.4, peak: 0.6 * standardGravity) - fullSine(t, start: 8, duration: 0.4, peak: 0.6 * standardGravity)
    return ((-(standardGravity + up) * sin(angle), 0, (standardGravity + up) * cos(angle)), (0, rate, 0))
}

// MARK: - WWDC 2016 "What's New in Core Motion" (session 713): the tennis swing counter

// Apple's SwingWatch sample, shown in the talk: device motion at 50 Hz on a serial queue, the
// rotation rate along gravity kept for a second in a running buffer, and a swing counted when
// the rotation accumulated over that second and its peak rate both pass a threshold. Kept as
// the sample writes it (its class names, constants and optional-unwrapping style).

protocol MotionManagerDelegate: AnyObject {
    func didUpdateForehandSwingCount(_ manager: MotionManager, forehandCount: Int)
    func didUpdateBackhandSwingCount(_ manager: MotionManager, backhandCount: Int)
}

class RunningBuffer {
    var buffer = [Double]()
    var size = 0

    init(size: Int) {
        self.size = size
        self.buffer = [Double](repeating: 0.0, count: self.size)
    }

    func addSample(_ sample: Double) {
        buffer.insert(sample, at: 0)
        if buffer.count > size {
            buffer.removeLast()
        }
    }

    func reset() {
        buffer.removeAll(keepingCapacity: true)
    }

    func isFull() -> Bool {
        return size == buffer.count
    }

    func sum() -> Double {
        return buffer.reduce(0.0, +)
    }

    func min() -> Double {
        var min = 0.0
        if buffer.count > 0 {
            min = buffer[0]
        }
        for value in buffer {
            min = Swift.min(min, value)
        }
        return min
    }

    func max() -> Double {
        var max = 0.0
        if buffer.count > 0 {
            max = buffer[0]
        }
        for value in buffer {
            max = Swift.max(max, value)
        }
        return max
    }

    func recentMean() -> Double {
        // Calculate the mean over the beginning half of the buffer.
        let recentCount = self.size / 2
        var mean = 0.0

        if buffer.count >= recentCount {
            let recentBuffer = buffer[0..<recentCount]
            mean = recentBuffer.reduce(0.0, +) / Double(recentBuffer.count)
        }

        return mean
    }
}

class MotionManager {
    // MARK: Properties

    let motionManager: CMMotionManager
    let queue = OperationQueue()
    // WatchKit's `WKInterfaceDevice.current().wristLocation == .left` in the sample: a board has
    // no wrist setting, so the right wrist, as the simulated swings are made.
    let wristLocationIsLeft = false

    // MARK: Application Specific Constants

    // These constants were derived from data and should be further tuned for your needs.
    let yawThreshold = 1.95 // Radians
    let rateThreshold = 5.5 // Radians/sec
    let resetThreshold = 5.5 * 0.05 // To avoid double counting on the return swing.

    // The app is using 50hz data and the buffer is going to hold 1s worth of data.
    let sampleInterval = 1.0 / 50
    let rateAlongGravityBuffer = RunningBuffer(size: 50)

    weak var delegate: (any MotionManagerDelegate)?

    /// Swing counts.
    var forehandCount = 0
    var backhandCount = 0

    var recentDetection = false

    // MARK: Initialization

    // The sample's `let motionManager = CMMotionManager()`, here given the simulated board.
    init(board: String) {
        motionManager = CMMotionManager(board: board)
        // Serial queue for sample handling and calculations.
        queue.maxConcurrentOperationCount = 1
        queue.name = "MotionManagerQueue"
    }

    // MARK: Motion Manager

    func startUpdates() {
        if !motionManager.isDeviceMotionAvailable {
            print("Device Motion is not available.")
            return
        }

        // Reset everything when we start.
        resetAllState()

        motionManager.deviceMotionUpdateInterval = sampleInterval
        motionManager.startDeviceMotionUpdates(to: queue) { (deviceMotion: CMDeviceMotion?, error: Error?) in
            if error != nil {
                print("Encountered error: \(error!)")
            }

            if deviceMotion != nil {
                self.processDeviceMotion(deviceMotion!)
            }
        }
    }

    func stopUpdates() {
        if motionManager.isDeviceMotionAvailable {
            motionManager.stopDeviceMotionUpdates()
        }
    }

    // MARK: Motion Processing

    func processDeviceMotion(_ deviceMotion: CMDeviceMotion) {
        let gravity = deviceMotion.gravity
        let rotationRate = deviceMotion.rotationRate

        let rateAlongGravity = rotationRate.x * gravity.x // r⃗ · ĝ
                             + rotationRate.y * gravity.y
                             + rotationRate.z * gravity.z
        rateAlongGravityBuffer.addSample(rateAlongGravity)

        if !rateAlongGravityBuffer.isFull() {
            return
        }

        let accumulatedYawRot = rateAlongGravityBuffer.sum() * sampleInterval
        let peakRate = accumulatedYawRot > 0 ?
            rateAlongGravityBuffer.max() : rateAlongGravityBuffer.min()

        if (accumulatedYawRot < -yawThreshold && peakRate < -rateThreshold) {
            // Counter clockwise swing.
            if (wristLocationIsLeft) {
                incrementBackhandCountAndUpdateDelegate()
            } else {
                incrementForehandCountAndUpdateDelegate()
            }
        } else if (accumulatedYawRot > yawThreshold && peakRate > rateThreshold) {
            // Clockwise swing.
            if (wristLocationIsLeft) {
                incrementForehandCountAndUpdateDelegate()
            } else {
                incrementBackhandCountAndUpdateDelegate()
            }
        }

        // Reset after letting the rate settle to catch the return swing.
        if (recentDetection && abs(rateAlongGravityBuffer.recentMean()) < resetThreshold) {
            recentDetection = false
            rateAlongGravityBuffer.reset()
        }
    }

    // MARK: Data and Delegate Management

    func resetAllState() {
        rateAlongGravityBuffer.reset()

        forehandCount = 0
        backhandCount = 0
        recentDetection = false

        updateForehandSwingDelegate()
        updateBackhandSwingDelegate()
    }

    func incrementForehandCountAndUpdateDelegate() {
        if (!recentDetection) {
            forehandCount += 1
            recentDetection = true

            print("Forehand swing. Count: \(forehandCount)")
            updateForehandSwingDelegate()
        }
    }

    func incrementBackhandCountAndUpdateDelegate() {
        if (!recentDetection) {
            backhandCount += 1
            recentDetection = true

            print("Backhand swing. Count: \(backhandCount)")
            updateBackhandSwingDelegate()
        }
    }

    func updateForehandSwingDelegate() {
        delegate?.didUpdateForehandSwingCount(self, forehandCount: forehandCount)
    }

    func updateBackhandSwingDelegate() {
        delegate?.didUpdateBackhandSwingCount(self, backhandCount: backhandCount)
    }
}

/// The sample's WorkoutManager in the test's place: keeps what the delegate was told, in order
/// (the delegate runs on the motion queue; the test reads from its own thread).
final class SwingScoreboard: MotionManagerDelegate, Sendable {
    let updates = Lock<[String]>([])
    func didUpdateForehandSwingCount(_ manager: MotionManager, forehandCount: Int) { updates.withLock { $0.append("forehand \(forehandCount)") } }
    func didUpdateBackhandSwingCount(_ manager: MotionManager, backhandCount: Int) { updates.withLock { $0.append("backhand \(backhandCount)") } }
}

@Suite(.serialized) struct TennisSwingCounterTalkTests {
    /// Three swings on the wrist: counted once each, by their direction.
    @Test func countsForehandsAndBackhandsOnASimulatedWrist() async throws {
        let motion = MotionManager(board: try motionBoard("tennis-swings", seconds: 12, tennisSwings))
        let scoreboard = SwingScoreboard()
        motion.delegate = scoreboard
        motion.startUpdates()
        defer { motion.stopUpdates() }
        // Until the third swing is counted (at 8.5 s of board time; 60 s is for a hang only).
        _ = try await eventually { scoreboard.updates.withLock { $0.count } >= 5 }
        motion.stopUpdates()
        try await drain(motion.queue)
        // The reset's zeros, then the swings in the order made: forehand, backhand, forehand.
        // The talk's window sums every 50 Hz update, so a lost update can miss a swing (then
        // counted when the recording starts over, out of order); the motion queue
        // keeps up to maxPendingUpdates (4 s at 50 Hz), beyond the stalls a loaded machine
        // gives it (1.1 s under ThreadSanitizer, when it kept only 16 and this failed).
        let updates = scoreboard.updates.withLock { $0 }
        let dropped = motion.motionManager.droppedDeviceMotionUpdates
        #expect(Array(updates.prefix(5)) == ["forehand 0", "backhand 0", "forehand 1", "backhand 1", "forehand 2"],
                "\(updates), \(dropped) updates dropped")
    }

    /// A watch lying still, then one turning slowly through every orientation
    /// (`synthetic:tumble`, under 1.2 rad/s): no swing.
    @Test func countsNothingAtRestOrTurnedSlowly() async throws {
        let tumbling = try privateBoard("tumbling.board", """
            board = simulated tumbling watch

            [chip imu]
            driver = bmi160
            bus = emulated
            address = 0x68
            rate = 100
            motion = synthetic:tumble

            """)
        for (board, turning) in [(try motionBoard("resting", seconds: 10, resting), false), (tumbling, true)] {
            let motion = MotionManager(board: board)
            let scoreboard = SwingScoreboard()
            motion.delegate = scoreboard
            // A second app on the board says how much motion there was: 5 s of samples, by
            // their timestamps (the counter's buffer is a second).
            let observer = CMMotionManager(board: board)
            let observed = Received<CMDeviceMotion>()
            observer.deviceMotionUpdateInterval = 1.0 / 50
            observer.startDeviceMotionUpdates(to: serialQueue(), withHandler: observed.handle)
            motion.startUpdates()
            #expect(try await eventually {
                guard let first = observed.data.first, let last = observed.data.last else { return false }
                return last.timestamp - first.timestamp >= 5
            })
            motion.stopUpdates()
            observer.stopDeviceMotionUpdates()
            try await drain(motion.queue)
            // The rotation seen along gravity: none at rest; turning, some (the counter had a
            // turn to judge), well under a swing's.
            let peak = observed.data.map { m in abs(m.rotationRate.x * m.gravity.x + m.rotationRate.y * m.gravity.y + m.rotationRate.z * m.gravity.z) }.max() ?? 0
            print("swing counter: \(board): \(observed.data.count) samples, peak \(peak) rad/s about the vertical")
            #expect(turning ? peak > 0.3 && peak < 1.2 : peak < 0.05, "\(board): \(peak) rad/s")
            #expect(scoreboard.updates.withLock { $0 } == ["forehand 0", "backhand 0"], "\(board)")
        }
    }
}

// MARK: - WWDC 2017 "Creating Immersive Apps with Core Motion" (session 704): Badger with Attitude

// The talk's game: device motion at 60 Hz drives a badger that tilts with the phone (the
// attitude relative to the one when the game started: `copy()` then `multiply(byInverseOf:)`),
// jumps when the phone is lifted and ducks when it is lowered (user acceleration along gravity,
// their dot product, past a threshold, once per gesture). SpriteKit's scene and badger node are
// the `Badger` protocol here.

protocol Badger: AnyObject {
    func tilt(roll: Double, pitch: Double)
    func jump()
    func duck()
}

class GameViewController {
    let motionManager: CMMotionManager
    let motionQueue = OperationQueue()
    weak var badger: (any Badger)?

    var referenceAttitude: CMAttitude?
    var lastGestureTimestamp: TimeInterval = 0

    // Along gravity, in g: a lift or a drop the player means, not a hand's tremor.
    let jumpThreshold = 0.3
    let duckThreshold = -0.3
    // One gesture moves the phone there and back (lifting ends by slowing down, which reads as
    // a drop): nothing more for half a second.
    let gestureInterval: TimeInterval = 0.5

    // The talk's `let motionManager = CMMotionManager()`, here given the simulated board.
    init(board: String) {
        motionManager = CMMotionManager(board: board)
        motionQueue.maxConcurrentOperationCount = 1
    }

    func startGame() {
        guard motionManager.isDeviceMotionAvailable else { return }
        motionManager.deviceMotionUpdateInterval = 1.0 / 60.0
        motionManager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: motionQueue) { [weak self] motion, error in
            guard let self = self, let motion = motion else { return }
            self.handleDeviceMotion(motion)
        }
    }

    func stopGame() {
        motionManager.stopDeviceMotionUpdates()
    }

    func handleDeviceMotion(_ motion: CMDeviceMotion) {
        // Tilt: relative to how the player held the phone when the game started.
        if referenceAttitude == nil {
            referenceAttitude = motion.attitude.copy() as? CMAttitude
        }
        let attitude = motion.attitude
        if let referenceAttitude = referenceAttitude {
            attitude.multiply(byInverseOf: referenceAttitude)
        }
        badger?.tilt(roll: attitude.roll, pitch: attitude.pitch)

        // Jump and duck: the user's acceleration along gravity, whichever way the phone is held.
        let gravity = motion.gravity
        let userAcceleration = motion.userAcceleration
        let accelerationAlongGravity = userAcceleration.x * gravity.x
                                     + userAcceleration.y * gravity.y
                                     + userAcceleration.z * gravity.z
        guard motion.timestamp - lastGestureTimestamp > gestureInterval else { return }
        // Gravity points down: a phone lifted accelerates against it, which Core Motion's
        // convention reports as user acceleration along it.
        if accelerationAlongGravity > jumpThreshold {
            lastGestureTimestamp = motion.timestamp
            badger?.jump()
        } else if accelerationAlongGravity < duckThreshold {
            lastGestureTimestamp = motion.timestamp
            badger?.duck()
        }
    }
}

/// The scene's badger in the test's place: what the game told it (on the motion queue).
final class RecordingBadger: Badger, Sendable {
    struct Moves {
        var tilts: [(roll: Double, pitch: Double)] = []
        var gestures: [String] = []
    }
    let moves = Lock(Moves())
    func tilt(roll: Double, pitch: Double) { moves.withLock { $0.tilts.append((roll, pitch)) } }
    func jump() { moves.withLock { $0.gestures.append("jump") } }
    func duck() { moves.withLock { $0.gestures.append("duck") } }
}

@Suite(.serialized) struct BadgerGameTalkTests {
    /// A phone lying still: the badger stands level, neither jumping nor ducking.
    @Test func atRestTheBadgerStandsLevel() async throws {
        let game = GameViewController(board: try motionBoard("resting", seconds: 10, resting))
        let badger = RecordingBadger()
        game.badger = badger
        game.startGame()
        defer { game.stopGame() }
        // Three seconds of 60 Hz frames (the count, not the time it took).
        #expect(try await eventually { badger.moves.withLock { $0.tilts.count } >= 180 })
        game.stopGame()
        try await drain(game.motionQueue)
        let moves = badger.moves.withLock { $0 }
        #expect(moves.gestures.isEmpty, "\(moves.gestures)")
        let largest = moves.tilts.map { max(abs($0.roll), abs($0.pitch)) }.max() ?? .infinity
        print("badger at rest: \(moves.tilts.count) frames, tilted up to \(largest * 180 / Double.pi)°")
        #expect(largest < 2 * Double.pi / 180, "tilted \(largest * 180 / Double.pi)°")
    }

    /// Rolled 20° and back, lifted, lowered: the badger leans 20°, then jumps, then ducks.
    @Test func theBadgerLeansJumpsAndDucks() async throws {
        let game = GameViewController(board: try motionBoard("badger-moves", seconds: 10, badgerMoves))
        let badger = RecordingBadger()
        game.badger = badger
        game.startGame()
        defer { game.stopGame() }
        // Until both gestures (8.4 s of board time; the recording's next run is 8 s later).
        _ = try await eventually { badger.moves.withLock { $0.gestures.count } >= 2 }
        game.stopGame()
        try await drain(game.motionQueue)
        let moves = badger.moves.withLock { $0 }
        #expect(moves.gestures.prefix(2) == ["jump", "duck"], "\(moves.gestures)")
        // The lean: 20° of roll at its largest, with no pitch to speak of.
        let roll = moves.tilts.map { abs($0.roll) }.max() ?? 0
        #expect(abs(roll * 180 / Double.pi - 20) < 3, "leaned \(roll * 180 / Double.pi)°")
        let pitch = moves.tilts.map { abs($0.pitch) }.max() ?? .infinity
        print("badger: \(moves.tilts.count) frames, roll up to \(roll * 180 / Double.pi)°, pitch up to \(pitch * 180 / Double.pi)°, \(moves.gestures)")
        #expect(pitch * 180 / Double.pi < 3, "pitched \(pitch * 180 / Double.pi)°")
    }
}

// MARK: - WWDC 2023 "What's new in Core Motion" (session 10179): batched sensor updates

// The talk's high-rate code: a batched sensor manager's device motion and accelerometer read
// with `for try await` in a Task, each batch handed to a feature extractor (the talk's jump
// detection from 800 Hz acceleration and 200 Hz device motion), stopped by the manager.

enum FeatureExtractor {
    struct Features {
        var deviceMotionBatches: [Int] = []
        var accelerometerBatches: [Int] = []
        var largestGravityError = 0.0
        var largestAccelerationError = 0.0
        var deviceMotionTimestamps: [TimeInterval] = []
    }
    // Module state in Swift 6: behind a lock (the batches come on the tasks' executors).
    static let features = Lock(Features())

    static func processDeviceMotion(_ data: [CMDeviceMotion]) {
        features.withLock { features in
            features.deviceMotionBatches.append(data.count)
            for motion in data {
                let g = motion.gravity
                features.largestGravityError = max(features.largestGravityError, abs((g.x * g.x + g.y * g.y + g.z * g.z).squareRoot() - 1))
                features.deviceMotionTimestamps.append(motion.timestamp)
            }
        }
    }

    static func processAccelerometer(_ data: [CMAccelerometerData]) {
        features.withLock { features in
            features.accelerometerBatches.append(data.count)
            for accelData in data {
                let a = accelData.acceleration
                features.largestAccelerationError = max(features.largestAccelerationError, abs((a.x * a.x + a.y * a.y + a.z * a.z).squareRoot() - 1))
            }
        }
    }
}

@Suite(.serialized) struct BatchedSensorsTalkTests {
    @Test func deviceMotionAndAccelerometerBatchesReachTheFeatureExtractor() async throws {
        // The talk's `let manager = CMBatchedSensorManager()`, given a simulated FIFO board of
        // its own: a BMI160 lying still, so that every sample of every batch has a known value
        // (1 g), however many batches come before the test stops them.
        let manager = CMBatchedSensorManager(board: try motionBoard("resting-fifo", seconds: 10, resting))

        // Check availability
        guard CMBatchedSensorManager.isDeviceMotionSupported || manager.isDeviceMotionSupported else {
            Issue.record("batched device motion is not supported on the simulated BMI160")
            return
        }

        let deviceMotionTask = Task {
            do {
                for try await data in manager.deviceMotionUpdates() {
                    // process the batch
                    FeatureExtractor.processDeviceMotion(data)
                }
            } catch let error as NSError {
                print("\(error)")
            }
        }
        let accelerometerTask = Task {
            do {
                for try await data in manager.accelerometerUpdates() {
                    FeatureExtractor.processAccelerometer(data)
                }
            } catch let error as NSError {
                print("\(error)")
            }
        }

        // Two batches of each (a batch is a second of the board's samples), then stop: the
        // sequences end and the tasks return.
        let arrived = try await eventually {
            FeatureExtractor.features.withLock { $0.deviceMotionBatches.count >= 2 && $0.accelerometerBatches.count >= 2 }
        }
        #expect(arrived, "batches after 60 s: \(FeatureExtractor.features.withLock { ($0.deviceMotionBatches, $0.accelerometerBatches) })")
        manager.stopDeviceMotionUpdates()
        manager.stopAccelerometerUpdates()
        await deviceMotionTask.value
        await accelerometerTask.value

        let features = FeatureExtractor.features.withLock { $0 }
        #expect(features.deviceMotionBatches.allSatisfy { $0 == manager.deviceMotionDataFrequency }, "\(features.deviceMotionBatches)")
        #expect(features.accelerometerBatches.allSatisfy { $0 == manager.accelerometerDataFrequency }, "\(features.accelerometerBatches)")
        #expect(features.largestGravityError < 0.01, "gravity is a unit vector")
        // Lying still: every sample is 1 g, give or take the emulated BMI160's noise (about
        // 1 mg RMS, cut at 6σ): a frame misparsed, its bytes read as the wrong axis or sensor, would be
        // far off.
        print("batched talk: \(features.deviceMotionBatches) device-motion and \(features.accelerometerBatches) accelerometer batches, "
              + "acceleration up to \(features.largestAccelerationError) g off 1 g")
        #expect(features.largestAccelerationError < 0.02, "\(features.largestAccelerationError) g")
        let times = features.deviceMotionTimestamps
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 }, "batches in order, none overlapping")
    }
}

// MARK: - WWDC 2023 "What's new in Core Motion" (session 10179): water submersion

// The talk's dive app: a main-actor model that is the manager's delegate, its delegate methods
// `nonisolated` (the manager calls them off the main actor) and their results handed to the
// main actor in a Task.

@MainActor final class SubmersionModel: NSObject, CMWaterSubmersionManagerDelegate {
    // The talk's `let submersionManager = CMWaterSubmersionManager()`, given the dive board.
    let submersionManager: CMWaterSubmersionManager
    var submerged: Bool?
    var depth: Measurement<UnitLength>?
    var pressure: Measurement<UnitPressure>?
    var surfacePressure: Measurement<UnitPressure>?
    var temperature: Measurement<UnitTemperature>?
    var temperatureUncertainty: Measurement<UnitTemperature>?
    var measurements = 0
    var errors: [String] = []
    /// Not the talk's: the board time (its clock's dates) of the first and latest measurements,
    /// so that the test waits for the dive in board time, not wall time; and the first
    /// measurement below 1 m while submerged (m, kPa, kPa), kept as it came: when the main actor
    /// is busy for a while, the updates queued meanwhile run together, and the state the test
    /// then sees may already be the dive's end.
    var firstMeasurementDate: Date?, lastMeasurementDate: Date?
    var underwater: (depth: Double, pressure: Double, surfacePressure: Double)?

    init(board: String) {
        submersionManager = CMWaterSubmersionManager(board: board)
        super.init()
    }

    func start() {
        guard CMWaterSubmersionManager.waterSubmersionAvailable || submersionManager.isWaterSubmersionAvailable else { return }
        submersionManager.delegate = self
    }

    func stop() {
        submersionManager.delegate = nil
    }

    nonisolated func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent) {
        let submerged: Bool?
        switch event.state {
        case .unknown:
            print("Unknown event received")
            submerged = nil
        case .notSubmerged:
            submerged = false
        case .submerged:
            submerged = true
        @unknown default:
            fatalError("Unknown event received")
        }
        Task { @MainActor in
            self.submerged = submerged
        }
    }

    nonisolated func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement) {
        let depth = measurement.depth
        let pressure = measurement.pressure
        let surfacePressure = measurement.surfacePressure
        let date = measurement.date
        Task { @MainActor in
            if let depth { self.depth = depth }
            if let pressure { self.pressure = pressure }
            self.surfacePressure = surfacePressure
            self.measurements += 1
            if self.firstMeasurementDate == nil { self.firstMeasurementDate = date }
            self.lastMeasurementDate = date
            if self.underwater == nil, self.submerged == true, let depth = depth?.converted(to: .meters).value, depth > 1,
               let pressure = pressure?.converted(to: .kilopascals).value {
                self.underwater = (depth, pressure, surfacePressure.converted(to: .kilopascals).value)
            }
        }
    }

    nonisolated func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature) {
        let temp = measurement.temperature
        let uncertainty = measurement.temperatureUncertainty
        Task { @MainActor in
            self.temperature = temp
            self.temperatureUncertainty = uncertainty
        }
    }

    nonisolated func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error) {
        let description = "\(error)"
        Task { @MainActor in
            self.errors.append(description)
        }
    }
}

@Suite(.serialized) struct WaterSubmersionTalkTests {
    /// The simulated dive (`synthetic:dive`: air, in at about 8 s, down to 7 m): the model
    /// hears it went under, with a depth, the pressures and the water's temperature.
    @MainActor @Test func theDiveModelFollowsASimulatedDive() async throws {
        let diveBoard = try privateBoard("ms5837.board", String(contentsOfFile: board("sim-ms5837.board"), encoding: .utf8))
        let model = SubmersionModel(board: diveBoard)
        model.start()
        defer { model.stop() }
        // Waits on the main actor, which runs the model's Tasks. The dive goes in at about 8 s
        // of board time, passes 1 m a second later and is at 7 m until 18 s. Wall time is a poor
        // clock for it: a simulated board's time falls behind the wall clock on a busy machine,
        // and while another test holds the main actor the model's updates queue up and then run
        // together (under ThreadSanitizer, 60 s of wall time once ended with the model at the
        // surface again). So the test waits up to 30 s of board time and checks the first
        // measurement below 1 m as it came (`underwater`); 10 minutes of wall time only
        // against a hang.
        func boardSeconds() -> Double {
            guard let first = model.firstMeasurementDate, let last = model.lastMeasurementDate else { return 0 }
            return last.timeIntervalSince(first)
        }
        let deadline = ContinuousClock.now + .seconds(600)
        while !(model.underwater != nil && model.temperature != nil) && boardSeconds() < 30 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        model.stop()
        #expect(model.errors.isEmpty, "\(model.errors)")
        let underwater = try #require(model.underwater, "no measurement below 1 m while submerged in \(boardSeconds()) s of board time")
        #expect(underwater.depth < 7.1, "\(underwater.depth) m")
        // Water pressure: the surface's plus about 9.8 kPa a metre of fresh water.
        #expect(abs(underwater.pressure - underwater.surfacePressure - 9.80665 * underwater.depth) < 1,
                "\(underwater.pressure) kPa at \(underwater.depth) m under \(underwater.surfacePressure) kPa")
        #expect(model.measurements > 25)
        #expect(model.temperatureUncertainty != nil)
    }
}
