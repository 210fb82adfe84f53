import Foundation
import Testing
import TestSupport

/// The unit in tools/motiond passes `systemd-analyze verify` (with ExecStart pointed at the
/// motiond just built: verify checks the binary exists), and says what the issue asks of it.
@Suite(.blocking) struct SystemdUnitTests {
    static let unitPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/motiond/motiond.service").path

    @Test func theUnitIsHardenedAsAsked() throws {
        let unit = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        for line in ["User=motiond", "Group=motion", "ProtectSystem=strict", "StateDirectory=opencoremotion", "RuntimeDirectory=opencoremotion",
                     "DevicePolicy=closed", "DeviceAllow=char-i2c rw", "DeviceAllow=char-iio rw", "DeviceAllow=char-gpiochip rw",
                     "Restart=on-failure", "NoNewPrivileges=true"] {
            #expect(unit.split(separator: "\n").contains { $0 == line }, "missing \(line)")
        }
        #expect(unit.split(separator: "\n").filter { $0.hasPrefix("DeviceAllow=") }.count == 3)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func systemdAnalyzeVerifiesTheUnit() throws {
        let folder = "/tmp/motiond-unit-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unit = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/motiond", with: DaemonProcess.binary("motiond"))
        let copy = "\(folder)/motiond.service"
        try unit.write(toFile: copy, atomically: true, encoding: .utf8)
        let (status, text) = try runProgram("/usr/bin/systemd-analyze", ["verify", copy])
        #expect(status == 0, "systemd-analyze verify: \(text)")
        #expect(!text.contains("motiond.service:"), "\(text)")
    }
}
