import Glibc
import Recordings
import Testing
import TestSupport

@Suite(.blocking) struct BundledRecordingsTests {
    /// Data rows per bundled excerpt, as counted by tools/datasets/bundle_test_recordings.py
    /// (Python's gzip module) when it cut them.
    static let rowCounts = [
        "uci_hapt_exp01_user01_stand_walk.csv.gz": 10_000,
        "oxford_pixel_frontpocket_walk.csv.gz": 16_167,
        "oxford_samsung_frontpocket_walk_90s.csv.gz": 19_030,
        "broad_01_slow_rotation.csv.gz": 17_145,
    ]

    @Test(arguments: rowCounts.keys.sorted())
    func bundledRecordingReadsCompletely(_ name: String) {
        let result = readAll(ProjectPaths.recording(name))
        #expect(result.error == nil, "\(result.error ?? "")")
        #expect(result.samples.count == Self.rowCounts[name])
    }

    /// Every recording of the shared data sets (sidecars excluded) reads without error: the
    /// reader accepts all real data the project is scored on.
    @Test func everySharedDatasetRecordingReads() throws {
        guard let folders = opendir(ProjectPaths.sharedDatasets) else {
            print("skipped: \(ProjectPaths.sharedDatasets) is absent")
            return
        }
        closedir(folders)
        var paths: [String] = []
        let pipe = popen("find '\(ProjectPaths.sharedDatasets)' -name '*.csv.gz' ! -name '*.truth.csv.gz' ! -name '*.phone.csv.gz' | sort", "r")!
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), pipe) != nil {
            paths.append(line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingSuffix("\n"))
        }
        pclose(pipe)
        #expect(paths.count > 50)
        var total = 0
        for path in paths {
            do {
                let reader = try RecordingReader(path: path)
                while try reader.next() != nil { total += 1 }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(total > 1_000_000)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
