import Foundation

/// The instructions per sample each pipeline stage may cost (`motionctl bench --budget FILE`):
/// the guard CI runs on the hot path's speed.
///
/// Why instructions and not nanoseconds: callgrind counts the same instructions for the same
/// binary and input whatever else the machine does, so a bound a few per cent wide is
/// safe, where this machine's timings of one binary swing by half. Why a budget at all: a
/// generic helper that lost its `@inlinable` ran unspecialised through value witnesses and
/// cost 45 % more per sample (fusion 6D 1 255 → 1 852) while every test passed.
///
/// The file holds one `STAGE INSTRUCTIONS` line per stage (`--stage`'s names); `#` starts a comment.
struct InstructionBudget {
    /// How far over its budget a stage may go. Callgrind's counts of one binary repeat exactly;
    /// this leaves room for what differs between machines (glibc picks its string functions by
    /// the processor) and for small deliberate costs, and catches a lost specialisation.
    static let tolerancePercent = 5.0

    let path: String
    private(set) var instructions: [BenchStageName: Double] = [:]

    init(path: String) throws {
        self.path = path
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw BudgetError(description: "Could not read the instruction budget \(path): \(error.localizedDescription). Give the path of a file such as tools/benchmarks/instruction-budget.txt.")
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            let place = "\(path) line \(index + 1)"
            guard fields.count == 2 else {
                throw BudgetError(description: "\(place): expected 'STAGE INSTRUCTIONS', got '\(line.trimmingCharacters(in: .whitespaces))'.")
            }
            guard let stage = BenchStageName(rawValue: String(fields[0])), stage != .allocating else {
                let names = BenchStageName.allCases.filter { $0 != .allocating }.map(\.rawValue).joined(separator: ", ")
                throw BudgetError(description: "\(place): no stage '\(fields[0])'; the stages are \(names).")
            }
            guard let count = Double(fields[1]), count.isFinite, count > 0 else {
                throw BudgetError(description: "\(place): '\(fields[1])' is not a number of instructions over 0.")
            }
            guard instructions[stage] == nil else {
                throw BudgetError(description: "\(place): a second budget for \(stage.rawValue).")
            }
            instructions[stage] = count
        }
    }

    /// Every counted row against its budget: the lines to print, and whether any went over.
    /// A row without a budget is a failure too (a new stage must be given one); a stage far
    /// under its budget is reported, so that the gain can be kept by lowering it.
    func check(_ rows: [BenchRow]) -> (report: [String], passed: Bool) {
        var report: [String] = [], passed = true
        for row in rows {
            guard let name = row.name, let measured = row.instructionsPerSample else { continue }
            guard let budget = instructions[name] else {
                report.append("\(row.stage): \(Self.format(measured)) instructions a sample and no budget in \(path). Add a line '\(name.rawValue) \(Self.format(measured))'.")
                passed = false
                continue
            }
            let percent = (measured / budget - 1) * 100
            let figures = "\(Self.format(measured)) instructions a sample against a budget of \(Self.format(budget)) (\(String(format: "%+.1f", percent)) %)"
            if percent > Self.tolerancePercent {
                report.append("\(row.stage): \(figures), over the \(Self.format(Self.tolerancePercent)) % allowed. A change made this stage slower: find it with valgrind --tool=callgrind and callgrind_annotate (motionctl bench --stage \(name.rawValue) --quiet runs the stage alone), or, if the cost is meant, raise the budget in \(path) and say why in the commit.")
                passed = false
            } else if percent < -Self.tolerancePercent {
                report.append("\(row.stage): \(figures), faster than its budget. Lower it in \(path) to \(Self.format(measured)) so that the gain is kept.")
            } else {
                report.append("\(row.stage): \(figures), within budget.")
            }
        }
        return (report, passed)
    }

    private static func format(_ value: Double) -> String { String(format: "%.0f", value) }
}

/// An instruction budget that could not be read, or was exceeded, with what to do.
struct BudgetError: Error, CustomStringConvertible {
    var description: String
}
