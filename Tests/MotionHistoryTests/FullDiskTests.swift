import Foundation
import MotionHistory
import Testing
import TestSupport

/// Commits that fail for long (a full disk): the accelerometer samples waiting in memory are
/// bounded by `maximumUnwrittenNanoseconds`, the rest are dropped and counted, and what was kept
/// is written when the disk takes it again, with the gap as a new continuity run. The history
/// goes on a 256 KB tmpfs the test fills (root only: it mounts one).
@Suite(.blocking) struct FullDiskTests {
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = NSTemporaryDirectory() + "history-mount-probe-\(getpid())"
        mkdir(probe, 0o700)
        defer { rmdir(probe) }
        guard mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount2(probe, Int32(MNT_DETACH))
        return true
    }()

    @Test(.enabled(if: canMount)) func samplesWaitingForAFullDiskAreBoundedAndCounted() throws {
        let history = TemporaryHistory("full-disk")
        mkdir(history.path, 0o755)
        guard mount("tmpfs", history.path, "tmpfs", 0, "size=256k") == 0 else {
            Issue.record("mount: \(String(cString: strerror(errno)))")
            return
        }
        defer {
            umount2(history.path, Int32(MNT_DETACH))
            history.remove()
        }
        // 1 s of 50 Hz may wait: 50 samples.
        let store = try history.open { $0.maximumUnwrittenNanoseconds = 1_000_000_000 }
        let period: Int64 = 20_000_000
        var time: Int64 = 1_000_000_000_000
        func append(_ count: Int) {
            for _ in 0..<count {
                store.append(AccelerometerSample(timeNanoseconds: time, x: 0, y: 0, z: -1))
                time += period
            }
        }
        // Fill the disk before the first segment file exists: every commit now fails (a file
        // already open could take a few more blocks into its last page), and the samples wait.
        let filler = history.path + "/filler"
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let block = [UInt8](repeating: 0xA5, count: 4096)
        while write(descriptor, block, block.count) > 0 {}
        close(descriptor)
        var failures = 0
        for _ in 0..<4 {
            append(50)
            do { try store.commit() } catch { failures += 1 }
        }
        #expect(failures == 4)
        // 200 samples came while the disk was full; 50 waited, 150 were dropped and counted.
        #expect(store.unwrittenAccelerometerSamples == 150)
        #expect(store.droppedAccelerometerSamples == 150)
        // Space again: what waited is written, and what comes next starts a new run.
        unlink(filler)
        try store.commit()
        append(10)
        try store.commit()
        let kept = try store.accelerometerSamples(from: 0, to: .max)
        #expect(kept.count == 50 + 10)
        let runs = Set(kept.map(\.runIdentifier))
        #expect(runs.count == 2, "the 150 dropped samples leave a gap: \(runs.sorted())")
    }
}
