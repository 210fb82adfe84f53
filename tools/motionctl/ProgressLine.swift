import Foundation

/// A one-line progress display on standard error, shown only when it is a terminal (so logs and
/// pipes stay clean), redrawn at most ten times a second.
struct ProgressLine {
    let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var samples: Int64 = 0
    private var lastDrawNanoseconds: UInt64 = 0
    private var drawn = false

    init(label: String) { self.label = label }

    mutating func update(timestampNanoseconds: Int64) {
        samples += 1
        // Look at the clock once per 4096 samples: progress costs nothing per sample.
        guard enabled, samples & 4095 == 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDrawNanoseconds > 100_000_000 else { return }
        lastDrawNanoseconds = now
        drawn = true
        let seconds = Double(timestampNanoseconds) / 1e9
        FileHandle.standardError.write(Data("\r\(label): t = \(String(format: "%.1f", seconds)) s, \(samples) samples\u{1B}[K".utf8))
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
