import Foundation

/// A recording's labels (the `.json` sidecar, ../shared/specs/recording-format.md): the true
/// steps the demo's pedometer is held against, and how the device was carried.
struct DemoTruth {
    /// Each true step, ns of board time (0 = the recording's first row).
    let stepNanoseconds: [Int64]
    let carry: String?
    let device: String?

    private struct Labels: Decodable {
        var step_times: [Double]?
        var carry: String?
        var device: String?
    }

    init(path: String, firstSampleNanoseconds: Int64) throws {
        let labels: Labels
        do {
            labels = try JSONDecoder().decode(Labels.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw DemoError("Could not read the labels in \(path): \(error.localizedDescription). "
                            + "They should be a JSON object with `step_times` (seconds, recording time), as tools/datasets/bundle_test_recordings.py writes.")
        }
        // Step times are on the recording's clock; board time starts at its first row.
        stepNanoseconds = (labels.step_times ?? []).map { Int64(($0 * 1e9).rounded()) - firstSampleNanoseconds }
        carry = labels.carry
        device = labels.device
    }

    var hasSteps: Bool { !stepNanoseconds.isEmpty }

    /// True steps at or before board time `nanoseconds`.
    func steps(through nanoseconds: Int64) -> Int {
        var low = 0, high = stepNanoseconds.count
        while low < high {
            let middle = (low + high) / 2
            if stepNanoseconds[middle] <= nanoseconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The true cadence up to board time `nanoseconds`, steps/s: the step intervals over the
    /// time they span (nil before two steps).
    func cadence(through nanoseconds: Int64) -> Double? {
        let count = steps(through: nanoseconds)
        guard count >= 2 else { return nil }
        let span = stepNanoseconds[count - 1] - stepNanoseconds[0]
        return span > 0 ? Double(count - 1) / (Double(span) / 1e9) : nil
    }
}
