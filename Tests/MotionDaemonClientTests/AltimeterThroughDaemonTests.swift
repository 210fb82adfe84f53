import Foundation
import OpenCoreMotion
import Testing
import TestSupport

/// `CMAltimeter` on motiond (the simulated GY-521 + BMP280): the daemon owns the barometer and
/// runs the in-process altimeter's stage for each start, so the updates have the same shape as
/// in-process ones; the altimeter reconnects by itself after a daemon restart.
@Suite(.serialized, .blocking) struct AltimeterThroughDaemonTests {
    static let board = "sim-gy-521-bmp280.board"

    /// Relative and absolute altitude through the daemon and in-process, side by side on the
    /// same simulated board: the first relative update is 0 m, then one about every second;
    /// pressure, altitude, accuracy and precision agree (the same stage on the same readings);
    /// timestamps are on CLOCK_MONOTONIC near now.
    @Test func altitudeThroughTheDaemonHasTheInProcessShape() throws {
        let daemon = try Motiond("altimeter", board: Self.board)
        defer { daemon.remove() }
        try daemon.start()
        let viaDaemon = CMAltimeter(daemonSocket: daemon.socket)
        #expect(viaDaemon.isUsingDaemon && viaDaemon.backendDescription == "via motiond at \(daemon.socket)")
        #expect(viaDaemon.boardPath.hasSuffix("boards/\(Self.board)"), "\(viaDaemon.boardPath)")
        #expect(viaDaemon.isRelativeAltitudeAvailable && viaDaemon.isAbsoluteAltitudeAvailable)
        #expect(CMAltimeter(board: Self.board, daemonSocket: daemon.socket).isUsingDaemon, "the daemon's own board file")
        let other = CMAltimeter(board: "sim-bmi160-bmp280.board", daemonSocket: daemon.socket)
        #expect(!other.isUsingDaemon && other.backendDescription == "in-process engine")
        let inProcess = CMAltimeter(board: Self.board, daemonSocket: "/tmp/ocm-no-daemon-\(getpid()).sock")
        #expect(!inProcess.isUsingDaemon)

        let queue = OperationQueue()
        let daemonRelative = Collected<CMAltitudeData>(), localRelative = Collected<CMAltitudeData>()
        let daemonAbsolute = Collected<CMAbsoluteAltitudeData>(), localAbsolute = Collected<CMAbsoluteAltitudeData>()
        for (altimeter, relative, absolute) in [(viaDaemon, daemonRelative, daemonAbsolute), (inProcess, localRelative, localAbsolute)] {
            try altimeter.setSeaLevelPressure(101.0, uncertainty: 0.2)
            altimeter.startRelativeAltitudeUpdates(to: queue) { data, error in
                #expect(error == nil, "\(String(describing: error))")
                if let data { relative.append(data) }
            }
            altimeter.startAbsoluteAltitudeUpdates(to: queue) { data, error in
                #expect(error == nil, "\(String(describing: error))")
                if let data { absolute.append(data) }
            }
        }
        #expect(eventually(within: 12) { [daemonRelative, localRelative].allSatisfy { $0.count >= 6 } && [daemonAbsolute, localAbsolute].allSatisfy { $0.count >= 3 } })
        for altimeter in [viaDaemon, inProcess] {
            altimeter.stopRelativeAltitudeUpdates()
            altimeter.stopAbsoluteAltitudeUpdates()
        }
        let now = ProcessInfo.processInfo.systemUptime
        for (name, updates) in [("daemon", daemonRelative.all), ("in-process", localRelative.all)] {
            guard updates.count >= 6 else {
                Issue.record("\(name): only \(updates.count) relative altitude updates")
                continue
            }
            #expect(updates[0].relativeAltitude.doubleValue == 0, "\(name): the first update is the start, 0 m")
            #expect(updates.allSatisfy { abs($0.relativeAltitude.doubleValue) < 5 && abs($0.timestamp - now) < 20 }, "\(name)")
            let times = updates.map(\.timestamp)
            let mean = (times.last! - times.first!) / Double(times.count - 1)
            print("\(name): \(updates.count) relative altitude updates, mean interval \(String(format: "%.3f", mean)) s, "
                  + "pressure \(updates.last!.pressure.doubleValue) kPa, last \(updates.last!.relativeAltitude.doubleValue) m")
            #expect(abs(mean - 1) < 0.15, "\(name): \(mean) s between updates")
        }
        // The same stage on the same simulated readings: pressures within 0.05 kPa (≈ 4 m; the
        // two runs start at different points of the recording), the same accuracy from the same
        // reference (to 1 cm: it scales with the standard atmosphere's temperature at the
        // altitude, 0.2 % per 100 m), altitudes within the pressures' difference.
        if let d = daemonAbsolute.all.last, let l = localAbsolute.all.last, let dp = daemonRelative.all.last, let lp = localRelative.all.last {
            #expect(abs(dp.pressure.doubleValue - lp.pressure.doubleValue) < 0.05, "\(dp.pressure) vs \(lp.pressure) kPa")
            #expect(abs(d.accuracy - l.accuracy) < 0.01 && d.accuracy > 0, "\(d.accuracy) vs \(l.accuracy) m")
            #expect(abs(d.altitude - l.altitude) < 5 && abs(d.precision - l.precision) < 0.5, "\(d) vs \(l)")
            print("absolute: daemon \(d), in-process \(l)")
        }
    }

    /// motiond restarts under a running relative altitude stream: the altimeter reconnects by
    /// itself, updates come again about once a second, and relative altitude carries on (the
    /// board does not move: it stays near 0 m, and never restarts at exactly 0 m after the break).
    @Test func relativeAltitudeSurvivesADaemonRestart() throws {
        let daemon = try Motiond("altimeter-restart", board: Self.board)
        defer { daemon.remove() }
        try daemon.start()
        let altimeter = CMAltimeter(daemonSocket: daemon.socket)
        #expect(altimeter.isUsingDaemon)
        let updates = Collected<CMAltitudeData>()
        altimeter.startRelativeAltitudeUpdates(to: OperationQueue()) { data, error in
            #expect(error == nil, "\(String(describing: error))")
            if let data { updates.append(data) }
        }
        defer { altimeter.stopRelativeAltitudeUpdates() }
        #expect(eventually(within: 8) { updates.count >= 3 })
        daemon.stop()
        try daemon.start()
        let before = updates.count
        #expect(eventually(within: 12) { updates.count >= before + 4 }, "updates resume after the restart")
        let after = Array(updates.all.dropFirst(before))
        print("altimeter restart: \(before) updates before, \(after.count) after, gaps \(altimeter.daemonGaps) s, "
              + "relative altitude \(updates.all.map { String(format: "%.2f", $0.relativeAltitude.doubleValue) })")
        #expect(altimeter.daemonGaps.count == 1)
        #expect(after.allSatisfy { abs($0.relativeAltitude.doubleValue) < 5 })
        #expect(after.first.map { $0.relativeAltitude.doubleValue != 0 } ?? false, "relative altitude continues, not from 0")
        let times = after.map(\.timestamp)
        if times.count >= 3 {
            let mean = (times.last! - times.first!) / Double(times.count - 1)
            #expect(abs(mean - 1) < 0.15, "\(mean) s between updates after the restart")
        }
    }

    /// The daemon's errors reach the altimeter's handler as in-process ones would: a user the
    /// policy denies gets `notAuthorized` (the daemon is used anyway: no bypass to the chip), and
    /// a daemon board without a barometer `notAvailable`, each once and without data.
    @Test func deniedUsersAndBoardsWithoutABarometerGetTheErrors() throws {
        for (name, board, policy, code) in [("altimeter-deny", "sim-walker.board", "deny \(getuid())\n", CMError.Code.notAuthorized),
                                            ("altimeter-none", "sim-gy-521.board", "", .notAvailable)] {
            let daemon = try Motiond(name, board: board, policy: policy)
            defer { daemon.remove() }
            try daemon.start()
            let altimeter = CMAltimeter(daemonSocket: daemon.socket)
            #expect(altimeter.isUsingDaemon, "\(name)")
            #expect(altimeter.isRelativeAltitudeAvailable == (code == .notAuthorized), "\(name): the welcome's sensors")
            let errors = Collected<CMError>()
            altimeter.startRelativeAltitudeUpdates(to: OperationQueue()) { data, error in
                #expect(data == nil)
                if let error = error as? CMError { errors.append(error) }
            }
            #expect(eventually(within: 3) { errors.count == 1 }, "\(name)")
            #expect(errors.all.first?.code == code, "\(name): \(errors.all)")
            print("\(name): \(errors.all.first.map { $0.localizedDescription } ?? "no error")")
        }
    }
}
