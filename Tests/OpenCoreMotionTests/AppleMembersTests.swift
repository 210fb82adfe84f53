import Foundation
// `public`: this package builds with InternalImportsByDefault, and the iOS-style extension
// below has public members (an app in plain Swift 6 mode imports publicly already).
public import OpenCoreMotion
import Locking
import TestSupport
import Testing

/// Members of Core Motion that iOS code sets or reads and a board answers in its own way
/// (docs/swift-api.md): the code compiles unchanged and gets the documented answer.
@Suite struct AppleMembersTests {
    @Test func iOSCodeUsingTheseMembersCompilesAndGetsTheBoardsAnswers() async throws {
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        // Compass calibration's display: kept, nothing to show on a board.
        #expect(!manager.showsDeviceMovementDisplay)
        manager.showsDeviceMovementDisplay = true
        #expect(manager.showsDeviceMovementDisplay)
        // Authorization: the batched manager answers as the other managers of the system's
        // board (motiond's policy); a remote board's as its broker's credentials allow.
        #expect(CMBatchedSensorManager.authorizationStatus == CMMotionActivityManager.authorizationStatus())
        #expect(CMHeadphoneMotionManager.authorizationStatus() == .authorized)
        // A board's IMU is the device's own sensor.
        let received = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xArbitraryZVertical, to: serialQueue(), withHandler: received.handle)
        defer { manager.stopDeviceMotionUpdates() }
        #expect(try await eventually { !received.data.isEmpty })
        #expect(received.data.allSatisfy { $0.sensorLocation == .default })
    }
}

// Core Motion's sensor data list made a `Sequence` the way iOS code does it (Swift's answer to
// Apple's Objective-C `for (CMRecordedAccelerometerData *data in list)`), unchanged.
extension CMSensorDataList: Sequence {
    public typealias Iterator = NSFastEnumerationIterator
    public func makeIterator() -> NSFastEnumerationIterator {
        return NSFastEnumerationIterator(self)
    }
}

/// A headphone-motion delegate as an iOS app writes one: an NSObject with plain mutable state,
/// not Sendable (Apple's protocol does not require it, so neither may ours).
final class HeadTracker: NSObject, CMHeadphoneMotionManagerDelegate {
    var connected = false
    func headphoneMotionManagerDidConnect(_ manager: CMHeadphoneMotionManager) { connected = true }
    func headphoneMotionManagerDidDisconnect(_ manager: CMHeadphoneMotionManager) { connected = false }
}

/// A water-submersion delegate as a watchOS app writes one: not Sendable either.
/// (Its one counter sits in a Lock only because the test reads it from another thread.)
final class DiveComputer: NSObject, CMWaterSubmersionManagerDelegate {
    let measurements = Lock(0)
    func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent) {}
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement) {
        measurements.withLock { $0 += 1 }
    }
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature) {}
    func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error) {}
}

extension AppleMembersTests {
    @Test func recordedDataIsEnumeratedAsIOSCodeEnumeratesIt() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let list = CMSensorDataList((0..<50).map { i in
            CMRecordedAccelerometerData(startDate: start + Double(i) / 50, acceleration: CMAcceleration(x: 0, y: 0, z: -1), identifier: 42)
        })
        // iOS code: each element is `Any`, cast to the recorded sample.
        var count = 0
        for case let data as CMRecordedAccelerometerData in list {
            #expect(data.acceleration.z == -1 && data.identifier == 42)
            count += 1
        }
        #expect(count == 50)
        // A recorded sample is a CMAccelerometerData, as in Core Motion.
        let samples: [CMAccelerometerData] = list.compactMap { $0 as? CMAccelerometerData }
        #expect(samples.count == 50)
        #expect(list.compactMap { ($0 as? CMRecordedAccelerometerData)?.startDate }.last == start + 49.0 / 50)

        // Without motiond Core Motion's non-throwing query answers nil and keeps the reason.
        let recorder = CMSensorRecorder(daemonSocket: NSTemporaryDirectory() + "no-motiond-\(getpid()).sock")
        #expect(recorder.accelerometerData(from: start, to: start + 60) == nil)
        #expect(recorder.lastError?.code == .notAvailable)
    }

    @Test func headphoneMotionManagerIsCreatedAsIOSCodeCreatesIt() async throws {
        let manager = CMHeadphoneMotionManager()
        let tracker = HeadTracker()
        manager.delegate = tracker
        #expect(manager.delegate === tracker)
        #expect(!manager.isConnectionStatusActive && !manager.isDeviceMotionActive)
        // This machine has no remote board configured (the MQTT tests connect one): unavailable,
        // and starting says which file to write.
        guard !FileManager.default.fileExists(atPath: CMHeadphoneMotionManager.systemConfigurationFile) else { return }
        #expect(!manager.isDeviceMotionAvailable)
        let received = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(to: serialQueue(), withHandler: received.handle)
        #expect(try await eventually { !received.failures.isEmpty })
        #expect("\(received.failures[0])".contains("headphone-motion.conf"))
        #expect(!manager.isDeviceMotionActive)
        manager.startConnectionStatusUpdates()
        #expect(!manager.isConnectionStatusActive)
        manager.stopConnectionStatusUpdates()
        manager.stopDeviceMotionUpdates()
        manager.delegate = nil
        #expect(manager.delegate == nil && !tracker.connected)
    }

    @Test func aNonSendableDiveDelegateGetsMeasurements() async throws {
        let water = CMWaterSubmersionManager(board: board("sim-ms5837.board"))
        let diver = DiveComputer()
        water.delegate = diver
        defer { water.delegate = nil }
        #expect(try await eventually { diver.measurements.withLock { $0 } > 0 })
    }
}

extension AppleMembersTests {
    @Test func cNamesZeroValuesAndAttitudeCopiesWorkAsOnIOS() {
        // A low-pass filter as iOS code starts one: from the C struct's zero value.
        var filtered = CMAcceleration()
        filtered.x = 0.1 * 1 + 0.9 * filtered.x
        #expect(filtered.x == 0.1 && filtered.y == 0 && filtered.z == 0)
        #expect(CMRotationRate().z == 0 && CMMagneticField().x == 0 && CMQuaternion().w == 0 && CMRotationMatrix().m33 == 0)
        #expect(CMCalibratedMagneticField().accuracy == .low)

        // A game keeps the attitude at its start and measures later ones against it.
        let quarterTurn = CMQuaternion(x: 0, y: 0, z: (0.5).squareRoot(), w: (0.5).squareRoot())
        let current = CMAttitude(quaternion: quarterTurn)
        let reference = current.copy() as! CMAttitude
        current.multiply(byInverseOf: reference)
        #expect(abs(current.yaw) < 1e-12, "relative to itself: no turn")
        #expect(abs(reference.yaw - Double.pi / 2) < 1e-12, "the copy kept the start")

        // Errors compared as iOS code compares them: domain and C code.
        let error: any Error = CMError(.motionActivityNotAuthorized, "Motion activity is not authorized.")
        let nsError = error as NSError
        #expect(nsError.domain == CMErrorDomain)
        #expect(nsError.code == Int(CMErrorMotionActivityNotAuthorized.rawValue))
        #expect(CMErrorNULL.rawValue == 100 && CMErrorSize.rawValue == 113)
    }
}

extension AppleMembersTests {
    /// A game as the Core Motion talks write one: device motion pulled once a frame, in each
    /// reference frame, and the attitude measured against the one saved at the start
    /// (`copy()`, then `multiply(byInverseOf:)`), with no closure at all.
    @Test func aGamePullsDeviceMotionInEachFrameAgainstItsStartAttitude() async throws {
        let motionManager = CMMotionManager(board: board("sim-mpu-9250.board"))
        motionManager.magneticDeclination = 3  // where the board is: true north without a location file
        motionManager.deviceMotionUpdateInterval = 1.0 / 60.0
        let frames: [CMAttitudeReferenceFrame] = [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical, .xTrueNorthZVertical]
        for frame in frames {
            #expect(motionManager.availableAttitudeReferenceFrames.contains(frame))
            motionManager.startDeviceMotionUpdates(using: frame)
            #expect(motionManager.isDeviceMotionActive && motionManager.attitudeReferenceFrame == frame)
            // The game loop: wait for the first frame's motion, keep its attitude.
            #expect(try await eventually { motionManager.deviceMotion?.attitudeReferenceFrame == frame })
            let start = try #require(motionManager.deviceMotion)
            let referenceAttitude = start.attitude.copy() as! CMAttitude
            #expect(try await eventually { (motionManager.deviceMotion?.timestamp ?? 0) > start.timestamp })
            let motion = try #require(motionManager.deviceMotion)
            let attitude = motion.attitude
            attitude.multiply(byInverseOf: referenceAttitude)
            // Relative to the start: a rotation (unit quaternion), the start itself unchanged.
            let q = attitude.quaternion
            #expect(abs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) < 1e-6)  // the engine's fixed point
            #expect(referenceAttitude.quaternion == start.attitude.quaternion)
            // Heading only in the north frames, −1 elsewhere, as Core Motion's.
            let north = frame == .xMagneticNorthZVertical || frame == .xTrueNorthZVertical
            #expect(north ? (0..<360).contains(motion.heading) : motion.heading == -1, "\(frame.rawValue): \(motion.heading)")
            motionManager.stopDeviceMotionUpdates()
        }
    }
}

/// A view model as SwiftUI code writes one in Swift 6: main-actor state set by a handler given
/// `OperationQueue.main`. It compiles because Core Motion's handler types are not `@Sendable`
/// (a `@Sendable` handler could not touch `roll`), as on iOS.
@MainActor final class TiltModel {
    var roll = 0.0
    var updates = 0
    let motionManager = CMMotionManager(board: board("sim-mpu-9250.board"))

    func start() {
        motionManager.deviceMotionUpdateInterval = 1.0 / 60.0
        motionManager.startDeviceMotionUpdates(to: .main) { [weak self] motion, error in
            guard let self, let motion else { return }
            self.roll = motion.attitude.roll
            self.updates += 1
        }
    }

    func stop() { motionManager.stopDeviceMotionUpdates() }
}

extension AppleMembersTests {
    @MainActor @Test func aMainActorModelGetsDeviceMotionOnTheMainQueue() async throws {
        let model = TiltModel()
        model.start()
        defer { model.stop() }
        // Waits on the main actor, which lets the main queue run the handler (60 s: a hang only).
        let deadline = ContinuousClock.now + .seconds(60)
        while model.updates < 5 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(model.updates >= 5)
        #expect(abs(model.roll) <= Double.pi)
    }
}
