import Foundation
import MotionDaemon
import MotionDaemonProtocol
import Testing
import TestSupport

/// A full disk under a running motiond (issue 22): every commit fails, and the log says so once,
/// then a summary a window, not a line a commit; when space comes back it says that too. The
/// history goes on a 2 MB tmpfs filled up by the test (root only: it mounts one).
@Suite(.blocking) struct FullDiskLogTests {
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = "/tmp/motiond-mount-probe-\(getpid())"
        mkdir(probe, 0o700)
        defer { rmdir(probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount2(probe, Int32(MNT_DETACH))
        return true
    }()

    @Test(.enabled(if: canMount)) func aFullDiskIsOneLineThenASummaryAWindow() throws {
        let daemon = try DaemonProcess("full-disk", options: ["--log-repeat-window", "4"])
        let disk = "\(daemon.folder)/disk"
        mkdir(disk, 0o755)
        guard mount("tmpfs", disk, "tmpfs", 0, "size=2m") == 0 else { throw DaemonTestError("mount: \(String(cString: strerror(errno)))") }
        defer {
            daemon.stop(signal: SIGKILL)
            umount2(disk, Int32(MNT_DETACH))
            daemon.remove()
        }
        // The history on the small disk: a symbolic link from where DaemonProcess points it.
        try FileManager.default.createSymbolicLink(atPath: daemon.history, withDestinationPath: disk)
        try daemon.start()
        let filler = "\(disk)/filler"
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let block = [UInt8](repeating: 0xA5, count: 4096)
        while write(descriptor, block, block.count) > 0 {}
        close(descriptor)
        // 8 commits fail (one a second); a 4 s window allows the first line and 2 summaries.
        let failing = eventually(seconds: 60) { daemon.log.contains("No space left on device") }
        #expect(failing, "\(daemon.log)")
        Thread.sleep(forTimeInterval: 8)
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("No space left on device") }
        print("full disk for 8 s: \(lines.count) log lines\n" + lines.joined(separator: "\n"))
        #expect(lines.count >= 2 && lines.count <= 4, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.contains("repeated") && $0.contains("in the last") }, "\(lines)")
        #expect(daemon.isRunning)
        let link = try daemon.connect("during the full disk")
        guard case .status = try link.ask({ .status(request: $0) }) else { throw DaemonTestError("no status") }
        unlink(filler)
        #expect(eventually(seconds: 60) { daemon.log.contains("history: commits work again after") }, "\(daemon.log.suffix(1500))")
    }
}
