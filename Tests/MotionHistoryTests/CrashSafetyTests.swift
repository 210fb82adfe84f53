import Foundation
import MotionEngine
import MotionHistory
import TestSupport
import Testing

/// Nothing reported as stored is lost, and nothing torn is ever served: `kill -9` of a writer
/// at random moments, and power cuts simulated by truncating (or zero-extending) the files.
@Suite(.blocking) struct CrashSafetyTests {
    static let batch = CrashStream.batchNanoseconds

    /// The samples served from batch `first` on are the stream's, whole and in order, and there
    /// are at least those of batches `first…last`.
    static func checkStream(_ store: HistoryStore, fromBatch first: Int, throughBatch last: Int) throws -> Bool {
        let samples = try store.accelerometerSamples(from: Int64(first) * batch, to: Int64(last + 2) * batch)
        let expected = (last - first + 1) * CrashStream.samplesPerBatch
        guard samples.count >= expected else {
            Issue.record("batches \(first)…\(last) committed, but only \(samples.count) of \(expected) samples read back")
            return false
        }
        for (offset, recorded) in samples.enumerated() {
            let k = first * CrashStream.samplesPerBatch + offset
            let sample = recorded.sample
            guard sample.timeNanoseconds == Int64(k) * 20_000_000, sample.x == CrashStream.value(ofSample: k, axis: 0),
                  sample.y == CrashStream.value(ofSample: k, axis: 1), sample.z == CrashStream.value(ofSample: k, axis: 2),
                  recorded.runIdentifier == 0 else {
                Issue.record("sample \(k) read back wrong: \(recorded)")
                return false
            }
        }
        return true
    }

    /// The writer: the `history-crash-writer` beside this test binary (SwiftPM builds it, this
    /// target depends on it).
    static var writerPath: String {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("history-crash-writer").path
    }

    @Test func killingTheWriterAtRandomMomentsLosesNothingCommitted() throws {
        var random = SeededRandom(seed: 99)
        let temporary = TemporaryHistory("kill")
        defer { temporary.remove() }
        #expect(FileManager.default.isExecutableFile(atPath: Self.writerPath), "no writer at \(Self.writerPath)")
        // Each run's first and last reported batch: a commit writes one block per kind, so a
        // kill between two of them leaves a batch half stored, never reported, and not redone
        // by the next writer (it continues after the newest time stored).
        var runs: [ClosedRange<Int>] = []
        var kills = 0
        for iteration in 0..<20 {
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: Self.writerPath)
            writer.arguments = [temporary.path, "1000000"]
            let output = Pipe()
            writer.standardOutput = output
            try writer.run()
            // The kill comes at a random moment after the writer's first commit: on a loaded
            // machine starting the process alone can take longer than the random delay.
            var printed = Data()
            while !printed.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the writer ended
                printed.append(chunk)
            }
            usleep(UInt32.random(in: 0...150_000, using: &random))
            if writer.isRunning { kill(writer.processIdentifier, SIGKILL); kills += 1 }
            writer.waitUntilExit()
            printed.append(output.fileHandleForReading.readDataToEndOfFile())
            let reported = String(decoding: printed, as: UTF8.self)
                .split(separator: "\n").compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }
            guard let first = reported.first, let last = reported.last else { continue }
            runs.append(first...last)
            // What was reported is there and intact, and so is anything more that is served.
            let reports = ReportLog()
            let store = try temporary.open(reports)
            #expect(try Self.checkRun(store, first...last), "iteration \(iteration)")
            #expect(reports.all.allSatisfy { !$0.contains("do not decode") }, "\(reports.all)")
        }
        let committed = runs.map(\.count).reduce(0, +)
        print("kill -9 loop: \(kills) kills in 20 runs, \(committed) batches reported committed, all read back intact")
        #expect(kills >= 15 && runs.count >= 15)
        let store = try temporary.open()
        for run in runs { #expect(try Self.checkRun(store, run)) }
    }

    /// A run of reported batches: every sample served from its start on is the stream's, it has
    /// all of its own, and one step a batch.
    static func checkRun(_ store: HistoryStore, _ run: ClosedRange<Int>) throws -> Bool {
        let steps = try store.pedometerData(from: Int64(run.lowerBound) * batch, to: Int64(run.upperBound + 1) * batch).numberOfSteps
        guard steps == run.count else {
            Issue.record("\(steps) steps stored for batches \(run)")
            return false
        }
        return try checkStream(store, fromBatch: run.lowerBound, throughBatch: run.upperBound)
    }

    /// Byte offsets where each block ends in a segment file (from the headers' lengths).
    static func blockEnds(_ bytes: [UInt8]) -> [Int] {
        var ends: [Int] = []
        var offset = 0
        while offset + 28 <= bytes.count {
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            offset += 28 + length
            ends.append(offset)
        }
        return ends
    }

    /// A power cut leaves the newest segment cut at any byte (or grown with zeros, as ext4 can
    /// after a crash): opening detects the torn tail, drops it and says so; every whole block
    /// before the cut is served, nothing after it; writing goes on after the last whole block.
    @Test func aPowerCutAtARandomByteDropsTheTornTailAndNothingElse() throws {
        var random = SeededRandom(seed: 5)
        let original = TemporaryHistory("power-original")
        defer { original.remove() }
        let store = try original.open()
        for batch in 0..<200 {
            for sample in CrashStream.samples(ofBatch: batch) { store.append(sample) }
            store.append(CrashStream.step(ofBatch: batch))
            if let update = CrashStream.activity(ofBatch: batch) { store.append(update) }
            try store.commit()
        }
        try store.close()
        let segment = try #require(original.segments("accelerometer").last)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        let ends = Self.blockEnds(bytes)
        #expect(ends.count == 200 && ends.last == bytes.count)
        for trial in 0..<20 {
            let copy = TemporaryHistory("power-\(trial)")
            defer { copy.remove() }
            try FileManager.default.copyItem(atPath: original.path, toPath: copy.path)
            let target = copy.segments("accelerometer").last!
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: target))
            let zeroFilled = trial % 4 == 3
            var cut = Int.random(in: 1..<bytes.count, using: &random)
            if zeroFilled {
                // The size grew past the last write, the data never landed.
                cut = ends[ends.count - 2]
                try handle.truncate(atOffset: UInt64(cut))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(count: 300))
            } else {
                try handle.truncate(atOffset: UInt64(cut))
            }
            try handle.close()
            let whole = ends.filter { $0 <= cut }.count
            let torn = !ends.contains(cut) || zeroFilled
            let reports = ReportLog()
            let reopened = try copy.open(reports)
            let samples = try reopened.accelerometerSamples(from: 0, to: .max)
            #expect(samples.count == whole * CrashStream.samplesPerBatch, "cut at \(cut) of \(bytes.count)")
            if whole > 0 { #expect(try Self.checkStream(reopened, fromBatch: 0, throughBatch: whole - 1)) }
            let tornReports = reports.all.filter { $0.contains("torn tail") && $0.contains(target) }
            #expect(tornReports.count == (torn ? 1 : 0), "\(reports.all)")
            // The store goes on after the last whole block: the next batch reads back.
            for sample in CrashStream.samples(ofBatch: whole) { reopened.append(sample) }
            try reopened.commit()
            #expect(try Self.checkStream(reopened, fromBatch: 0, throughBatch: whole))
        }
    }
}
