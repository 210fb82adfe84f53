import ArgumentParser
import Chips
import FixedPoint
import Foundation
import Glibc
import MotionAlgorithms
import MotionEngine
import Recordings
import Synchronization

struct BenchMeasurement {
    var nanosecondsPerSample: Double
    var allocationsPerSample: Double
    var samples: Int

    /// `runs` timed runs of a fresh stage over `inputs` (its set-up outside the timing and
    /// the allocation count); the median ns, the fewest allocations.
    static func of<Stage: BenchStage>(runs: Int, warmUp: Bool, samples: Int, inputs: [Stage.Input], make: () -> Stage) -> BenchMeasurement {
        var times: [Double] = [], allocations: [Int] = []
        inputs.withUnsafeBufferPointer { buffer in
            for run in 0..<(runs + (warmUp ? 1 : 0)) {
                var stage = make()
                let allocationsBefore = AllocationCounter.count
                let start = PacedClock.monotonicNanoseconds()
                for input in buffer { stage.process(input) }
                let elapsed = PacedClock.monotonicNanoseconds() - start
                let allocated = AllocationCounter.count - allocationsBefore
                _ = blackHole(stage.checksum)
                if warmUp && run == 0 { continue }
                times.append(Double(elapsed))
                allocations.append(allocated)
            }
        }
        let per = Double(max(samples, 1))
        return BenchMeasurement(nanosecondsPerSample: times.sorted()[times.count / 2] / per,
                                allocationsPerSample: Double(allocations.min() ?? 0) / per, samples: samples)
    }
}

struct BenchRow {
    var stage: String
    var source: String
    var measurement: BenchMeasurement
    /// The `--stage` that reproduces it under callgrind (bundled recordings only).
    var name: BenchStageName?
    var instructionsPerSample: Double?

    static func table(_ rows: [BenchRow], callgrind: Bool) -> String {
        var lines = [["stage", "data", "samples", "ns/sample", "allocs/sample", "CPU % @100 Hz", "@400 Hz", "@1000 Hz"]
                     + (callgrind ? ["instructions/sample"] : [])]
        for row in rows {
            let ns = row.measurement.nanosecondsPerSample
            func cpu(_ hertz: Double) -> String { String(format: "%.3f", ns * hertz / 1e9 * 100) }
            lines.append([row.stage, row.source, String(row.measurement.samples), String(format: "%.1f", ns),
                          AllocationCounter.isInstalled ? String(format: "%.2f", row.measurement.allocationsPerSample) : "n/a", cpu(100), cpu(400), cpu(1000)]
                         + (callgrind ? [row.instructionsPerSample.map { String(format: "%.0f", $0) } ?? "-"] : []))
        }
        let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max()! }
        return lines.map { line in
            line.enumerated().map { column, cell in
                column < 2 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
