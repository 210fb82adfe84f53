import Foundation
import MotionEngine
import FixedPoint
@testable import MotionManagerCore
import OpenCoreMotion
import TestSupport
import Testing

/// `xTrueNorthZVertical` as Core Motion has it: true north from where the device is, or
/// `CMErrorTrueNorthNotAvailable`, never magnetic north silently. A board's place comes from
/// `/etc/opencoremotion/location` (`SystemLocation`) or the program's `magneticDeclination`.
@Suite struct TrueNorthTests {
    @Test func withoutAPlaceTrueNorthIsCoreMotionsError() async throws {
        guard try SystemLocation.load() == nil else {
            print("a location is configured here (\(SystemLocation.configurationFile())): the unconfigured case is not checked")
            return
        }
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        let received = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: serialQueue(), withHandler: received.handle)
        #expect(try await eventually { !received.failures.isEmpty })
        let error = try #require(received.failures.first as? CMError)
        #expect(error.code == .trueNorthNotAvailable && error.errorCode == 102)
        #expect(error.message.contains(SystemLocation.configurationFile()) && error.message.contains("magneticDeclination"), "\(error.message)")
        #expect(received.data.isEmpty && !manager.isDeviceMotionActive)
    }

    @Test func theProgramsDeclinationStartsTrueNorth() async throws {
        let manager = CMMotionManager(board: board("sim-mpu-9250.board"))
        manager.magneticDeclination = 10
        let received = Received<CMDeviceMotion>()
        manager.startDeviceMotionUpdates(using: .xTrueNorthZVertical, to: serialQueue(), withHandler: received.handle)
        defer { manager.stopDeviceMotionUpdates() }
        #expect(try await eventually { received.data.count >= 10 })
        #expect(received.failures.isEmpty && received.data.allSatisfy { $0.attitudeReferenceFrame == .xTrueNorthZVertical })
    }

    @Test func trueNorthIsMagneticNorthTurnedByTheDeclination() throws {
        // The same readings (the bundled BROAD rotation) through the estimator in both north
        // frames: at every sample the true heading is the magnetic one plus 10°, and the
        // attitude is turned by −10° about the vertical.
        let path = ProjectPaths.root + "/Tests/Recordings/broad_01_slow_rotation.csv.gz"
        var magnetic = DeviceMotionEstimator(frame: .xMagneticNorthZVertical)
        var truly = DeviceMotionEstimator(frame: .xTrueNorthZVertical, declination: 10)
        var compared = 0, mismatches: [String] = []
        _ = try RecordingPlayback(path: path).run { reading in
            let (m, t) = (magnetic.process(reading), truly.process(reading))
            guard let m, let t, m.heading.doubleValue >= 0 else { return }
            let difference = (t.heading.doubleValue - m.heading.doubleValue + 540).truncatingRemainder(dividingBy: 360) - 180
            if abs(difference - 10) > 0.01 { mismatches.append("true \(t.heading.doubleValue)° vs magnetic \(m.heading.doubleValue)°") }
            compared += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(compared > 1000)
    }

    @Test func motiondsMagneticNorthIsTurnedByTheManagersDeclination() throws {
        // Through motiond the manager asks for magnetic north and turns each sample itself (the
        // declination is the program's or this machine's place): heading 355° magnetic with
        // 10° east is 5° true, and the attitude turns by −10° about the vertical.
        let half = 355.0 * Double.pi / 360  // an attitude whose yaw is 355° magnetic
        let sample = DeviceMotion(timestampNanoseconds: 1, attitude: Quaternion(w: Q2_30(cos(half)), x: .zero, y: .zero, z: Q2_30(sin(half))),
                                  gravity: Vector3(x: .zero, y: .zero, z: Q16_16(-1.0)), userAcceleration: .zero, rotationRate: .zero,
                                  magneticField: .zero, magneticAccuracy: 2, heading: Q16_16(355.0))
        guard case .deviceMotion(let turned, let frame) = DaemonStreams.turnedToTrueNorth(.deviceMotion(sample, .xMagneticNorthZVertical), declination: 10) else {
            Issue.record("not device motion")
            return
        }
        #expect(frame == .xTrueNorthZVertical)
        #expect(abs(turned.heading.doubleValue - 5) < 0.001, "\(turned.heading.doubleValue)")
        let yaw = 2 * atan2(turned.attitude.z.doubleValue, turned.attitude.w.doubleValue) * 180 / Double.pi
        #expect(abs((yaw + 360).truncatingRemainder(dividingBy: 360) - 345) < 0.001, "\(yaw)")
    }

    @Test func theSystemsPlaceGivesTheWorldMagneticModelsDeclination() throws {
        let core = ManagerCore(board: board("sim-mpu-9250.board"))
        // Berlin on 2026-06-01 (1780272000 s): WMM2025 puts magnetic north about 5° east.
        let berlin = SystemLocation(latitude: 52.51, longitude: 13.32, altitudeMeters: 35)
        let declination = try core.trueNorthDeclination(location: { berlin }, unixSeconds: 1_780_272_000)
        #expect(abs(declination - (try berlin.declination(atUnixSeconds: 1_780_272_000))) < 1e-12)
        #expect(declination > 3 && declination < 7, "\(declination)°")
        // Outside the model's years: the error, saying what to do.
        #expect(throws: MotionManagerError.self) { try core.trueNorthDeclination(location: { berlin }, unixSeconds: 2_000_000_000) }
        // The program's declination wins over the place.
        core.magneticDeclination = -2
        #expect(try core.trueNorthDeclination(location: { berlin }, unixSeconds: 1_780_272_000) == -2)
    }

    @Test func aMalformedLocationFileNamesItsLine() throws {
        let folder = NSTemporaryDirectory() + "ocm-location-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/location"
        try "latitude = 52.51\nlongitude = 213.32\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try SystemLocation.load(path: path)
        } throws: { error in
            "\(error)".contains(path + ":2:") && "\(error)".contains("−180…180")
        }
        try "# the roof\nlatitude = 52.51 # north\nlongitude = 13.32\naltitude = 35\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try SystemLocation.load(path: path) == SystemLocation(latitude: 52.51, longitude: 13.32, altitudeMeters: 35))
    }
}
