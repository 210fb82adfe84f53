import Foundation
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

/// `BoardRuntime.startRecordingOver`: a simulated board's ended recording plays again on the
/// running chips, so their sample schedule goes on across the loop (every interval one period,
/// nothing counted lost), as the live engine relies on (issue 22: a new runtime per loop left a
/// gap that depended on the engine's lateness and that no counter saw).
@Suite struct RecordingLoopTests {
    @Test(arguments: ["sim-mpu-9250", "sim-gy-521", "sim-bmi160-bmp280"])
    func theChipsScheduleGoesOnAcrossLoops(board name: String) throws {
        let folder = try CalibrationFileTests.temporaryFolder()
        defer { CalibrationFileTests.removeFolder(folder) }
        var recording = "# ocm-recording 1\nt,sensor,x,y,z\n"
        for index in 0..<25 {
            recording += String(format: "%.3f,acc,0.1,0.2,9.8\n%.3f,gyr,0.01,0.02,0.03\n", Double(index) * 0.01, Double(index) * 0.01)
        }
        try recording.write(toFile: folder + "/still.csv", atomically: true, encoding: .utf8)
        let path = "\(ProjectPaths.root)/boards/\(name).board"
        let text = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("motion =") ? "motion = \(folder)/still.csv" : String($0) }.joined(separator: "\n")
        let runtime = try BoardRuntime(try BoardFileParser.parse(text, path: path), root: ProjectPaths.root, speed: 0)

        var stamps: [Int64] = []
        var loops = 0
        while runtime.nowNanoseconds < 1_200_000_000 {
            try runtime.step(notAfter: 1_200_000_000) { reading in
                if case .acceleration = reading.value { stamps.append(reading.timestampNanoseconds) }
            }
            if runtime.isFinished {
                loops += 1
                try runtime.startRecordingOver()
                #expect(!runtime.isFinished, "\(name): the recording plays again")
            }
        }
        #expect(loops >= 4, "\(name): the 0.25 s recording looped \(loops) times in 1.2 s")
        let intervals = Set(zip(stamps.dropFirst(), stamps).map { $0 - $1 })
        #expect(intervals == [10_000_000], "\(name): intervals \(intervals.sorted()) ns")
        #expect(runtime.sampleLoss(.accelerometer) == SampleLoss(), "\(name)")
    }
}
