// The writer that MotionHistoryTests kills with SIGKILL at random moments: it appends a
// deterministic stream to a history store and, after each commit returns, prints the number of
// the last committed batch ("committed N"), which the test then expects to find intact.
//
// usage: history-crash-writer DIRECTORY BATCHES
//
// Batch n (n = 0, 1, …) is one second of the stream: 50 accelerometer samples (sample k at
// k × 20 ms, values from `CrashStream`), one step at n s, and every 10th batch an activity
// update. A restarted writer continues after the newest batch the store holds.
import MotionHistory
import Glibc

/// One line to a descriptor with write(2) straight away: stdio's buffer would die with the process.
func say(_ line: String, to descriptor: Int32 = 1) {
    _ = "\(line)\n".utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let batches = Int(arguments[2]) else {
    say("usage: history-crash-writer DIRECTORY BATCHES", to: 2)
    exit(2)
}
do {
    let store = try HistoryStore(directory: arguments[1])
    var batch = store.newestCommittedNanoseconds.map { Int($0 / 1_000_000_000) + 1 } ?? 0
    let end = batch + batches
    while batch < end {
        for sample in CrashStream.samples(ofBatch: batch) { store.append(sample) }
        store.append(CrashStream.step(ofBatch: batch))
        if let update = CrashStream.activity(ofBatch: batch) { store.append(update) }
        try store.commit()
        say("committed \(batch)")
        batch += 1
    }
    try store.close()
} catch {
    say("history-crash-writer: \(error)", to: 2)
    exit(1)
}
