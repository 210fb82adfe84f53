import Foundation
import OpenCoreMotion
import Testing

/// `CMAltimeter` live on simulated boards with a barometer: the BMP280 and LPS25H emulators at
/// sea-level pressure with their datasheet noise, and a board feeling a recorded 3 m climb.
/// Timing bounds are generous: boards run in real time on a shared machine.
@Suite(.serialized) struct AltimeterTests {
    @Test func availabilityFollowsTheBoardsChips() {
        #expect(CMAltimeter(board: board("sim-gy-521-bmp280.board")).isRelativeAltitudeAvailable)
        #expect(CMAltimeter(board: board("sim-sense-hat.board")).isAbsoluteAltitudeAvailable)
        #expect(!CMAltimeter(board: board("sim-lsm6dsox-lis3mdl.board")).isRelativeAltitudeAvailable)
        // The class methods answer for the system's board.
        #expect(CMAltimeter.isRelativeAltitudeAvailable() == CMAltimeter(daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock").isRelativeAltitudeAvailable)
        #expect(CMAltimeter.authorizationStatus() == .authorized)
    }

    @Test func aBoardWithoutABarometerIsAnErrorNamingIt() async throws {
        let altimeter = CMAltimeter(board: board("sim-lsm6dsox-lis3mdl.board"))
        let queue = OperationQueue()
        let relative = Arrivals<CMAltitudeData>()
        let absolute = Arrivals<CMAbsoluteAltitudeData>()
        altimeter.startRelativeAltitudeUpdates(to: queue, withHandler: relative.handle)
        altimeter.startAbsoluteAltitudeUpdates(to: queue, withHandler: absolute.handle)
        try await drain(queue)
        let error = try #require(relative.failures.first as? CMError)
        #expect(error.code == .notAvailable && error.message.contains("no barometer") && error.message.contains("bmp280"), "\(error)")
        #expect(absolute.failures.count == 1 && relative.received.isEmpty && absolute.received.isEmpty)
        // And a board file that is not there.
        let missing = CMAltimeter(board: "/nonexistent/baro.board")
        missing.startRelativeAltitudeUpdates(to: queue, withHandler: relative.handle)
        try await drain(queue)
        #expect(relative.failures.count == 2 && (relative.failures.last as? CMError)?.message.contains("/nonexistent/baro.board") == true)
    }

    @Test func updatesComeEverySecondAtSeaLevelOnBothBarometers() async throws {
        for name in ["sim-gy-521-bmp280.board", "sim-sense-hat.board"] {
            let altimeter = CMAltimeter(board: board(name))
            let queue = OperationQueue()
            let relative = Arrivals<CMAltitudeData>()
            let absolute = Arrivals<CMAbsoluteAltitudeData>()
            altimeter.startRelativeAltitudeUpdates(to: queue, withHandler: relative.handle)
            altimeter.startAbsoluteAltitudeUpdates(to: queue, withHandler: absolute.handle)
            // From the first update on (a loaded machine may bring the board up late), 3.5 s.
            let deadline = Date().addingTimeInterval(15)
            while relative.received.isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .seconds(3.5))
            altimeter.stopRelativeAltitudeUpdates()
            altimeter.stopAbsoluteAltitudeUpdates()
            try await drain(queue)
            let stoppedAt = relative.received.count
            #expect(relative.failures.isEmpty && absolute.failures.isEmpty, "\(name): \(relative.failures)")
            // The first a second after the first reading, then one a second (by their timestamps,
            // checked below): at least 3 in the 3.5 s after the first. (Not at most: a loaded
            // machine can hold the board back and deliver several at once when it catches up.)
            #expect(relative.received.count >= 3 && absolute.received.count >= 3,
                    "\(name): \(relative.received.count) relative, \(absolute.received.count) absolute updates")
            let times = relative.received.map(\.item.timestamp)
            for (earlier, later) in zip(times, times.dropFirst()) {
                #expect(later - earlier >= 0.999 && later - earlier < 1.3, "\(name): updates \(later - earlier) s apart")
            }
            // Still at 101 325 Pa with the datasheet's noise (1.0…1.3 Pa): 0 m within centimetres.
            let first = try #require(relative.received.first?.item)
            #expect(first.relativeAltitude.doubleValue == 0 && abs(first.pressure.doubleValue - 101.325) < 0.01, "\(name): \(first)")
            for update in relative.received.map(\.item) {
                #expect(abs(update.relativeAltitude.doubleValue) < 0.15, "\(name): \(update)")
            }
            let last = try #require(absolute.received.last?.item)
            #expect(abs(last.altitude) < 0.3 && abs(last.accuracy - 83.24) < 0.05, "\(name): \(last)")
            #expect(last.precision > 0.002 && last.precision < 0.05, "\(name): precision \(last.precision) m")
            // Stopped: nothing more.
            try await Task.sleep(for: .seconds(1.5))
            try await drain(queue)
            #expect(relative.received.count == stoppedAt)
        }
    }

    @Test func aSeaLevelPressureMovesAbsoluteAltitudeAndAccuracy() async throws {
        let altimeter = CMAltimeter(board: board("sim-gy-521-bmp280.board"))
        #expect(altimeter.seaLevelPressure == 101.325 && altimeter.seaLevelPressureUncertainty == 1)
        #expect(throws: CMError.self) { try altimeter.setSeaLevelPressure(1013.25) }  // hPa given for kPa
        try altimeter.setSeaLevelPressure(102.0)
        let queue = OperationQueue()
        let absolute = Arrivals<CMAbsoluteAltitudeData>()
        altimeter.startAbsoluteAltitudeUpdates(to: queue, withHandler: absolute.handle)
        try await Task.sleep(for: .seconds(2.5))
        altimeter.stopAbsoluteAltitudeUpdates()
        try await drain(queue)
        let last = try #require(absolute.received.last?.item)
        // 101 325 Pa against 102 000 Pa: 56.0 m up, known to 0.1 kPa: 8.26 m.
        #expect(abs(last.altitude - 55.97) < 0.1 && abs(last.accuracy - 8.26) < 0.02, "\(last)")
    }

    @Test func aSecondStartReplacesTheFirstAndCountsFromZeroAgain() async throws {
        let altimeter = CMAltimeter(board: board("sim-sense-hat.board"))
        let queue = OperationQueue()
        let first = Arrivals<CMAltitudeData>()
        let second = Arrivals<CMAltitudeData>()
        altimeter.startRelativeAltitudeUpdates(to: queue, withHandler: first.handle)
        try await Task.sleep(for: .seconds(2.5))
        altimeter.startRelativeAltitudeUpdates(to: queue, withHandler: second.handle)
        try await drain(queue)
        let firstCount = first.received.count
        try await Task.sleep(for: .seconds(2.5))
        altimeter.stopRelativeAltitudeUpdates()
        try await drain(queue)
        // The first handler hears nothing after the second start; the second starts at 0 m and
        // gets one update a second (one stream, not two).
        #expect(first.received.count == firstCount && (1...3).contains(firstCount), "\(firstCount) first updates")
        #expect(second.received.first?.item.relativeAltitude.doubleValue == 0 && (1...3).contains(second.received.count),
                "\(second.received.map(\.item))")
        let times = second.received.map(\.item.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 0.999 }, "\(times)")
    }

    @Test func aRecordedClimbOfThreeMetresIsFollowed() async throws {
        // A board whose BMP280 feels a recording: 2 s still, 3 m up at 0.5 m/s, then still, in air
        // at the emulator's 22.5 °C (which its thermometer reports, and the altimeter uses).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("altimeter-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var recording = "# ocm-recording 1\nt,sensor,x,y,z\n"
        for index in 0...400 {
            let t = Double(index) * 0.05
            let height = min(max(0, (t - 2) * 0.5), 3)
            recording += String(format: "%.3f,baro,%.3f,,\n", t, 101_325 * exp(-height / (29.27124 * 295.65)))
        }
        try recording.write(toFile: folder + "/climb.csv", atomically: true, encoding: .utf8)
        let boardFile = "board = a BMP280 on a staircase\n\n[chip barometer]\ndriver = bmp280\nbus = emulated\naddress = 0x76\nmotion = \(folder)/climb.csv\n"
        try boardFile.write(toFile: folder + "/stairs.board", atomically: true, encoding: .utf8)

        let altimeter = CMAltimeter(board: folder + "/stairs.board")
        let queue = OperationQueue()
        let relative = Arrivals<CMAltitudeData>()
        altimeter.startRelativeAltitudeUpdates(to: queue, withHandler: relative.handle)
        try await Task.sleep(for: .seconds(14))
        altimeter.stopRelativeAltitudeUpdates()
        try await drain(queue)
        #expect(relative.failures.isEmpty, "\(relative.failures)")
        let heights = relative.received.map(\.item.relativeAltitude.doubleValue)
        // Up 3 m (the BMP280's noise is 1.3 Pa ≈ 11 cm raw, ≈ 2 cm filtered), settled by 12 s.
        let settled = relative.received.filter { $0.item.timestamp - relative.received[0].item.timestamp >= 10 }
        #expect(!settled.isEmpty && settled.allSatisfy { abs($0.item.relativeAltitude.doubleValue - 3) < 0.15 }, "\(heights)")
        #expect(heights.first == 0 && heights.prefix(2).allSatisfy { abs($0) < 0.15 }, "\(heights)")
    }
}
