import ArgumentParser
import Foundation
import MotionEngine

/// `motionctl plot REPLAY_DIR`: pictures of what `motionctl replay` wrote, drawn by the Python
/// package's `opencoremotion.plot` with matplotlib (Debian's python3-matplotlib), not by a
/// plotting library written here.
struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw SVG and PNG pictures of a replay's output with matplotlib.",
        discussion: "Pictures: attitude (roll, pitch, yaw; with the truth and its error when the recording has one), "
            + "steps (as ticks on the accelerometer's magnitude, the truth's steps below), activity (a coloured timeline "
            + "with confidence, the history and the truth), altitude and floors. Needs python3 and python3-matplotlib.")

    @Argument(help: "The folder `motionctl replay RECORDING --out DIR` wrote.")
    var replay: String

    @Option(help: "The recording replayed: its accelerometer and its truth (NAME.truth.csv.gz, NAME.json).")
    var recording: String?

    @Option(help: "Where to write the pictures (default: REPLAY/plots).")
    var out: String?

    @Option(help: "The Python interpreter to run.")
    var python = "python3"

    func run() throws {
        var arguments = [replay]
        if let recording { arguments += ["--recording", recording] }
        if let out { arguments += ["--out", out] }
        try PythonPlot.run(python: python, module: "opencoremotion.plot", arguments: arguments)
    }
}

/// Runs a module of the Python package (`python -m MODULE ARGUMENTS`) and waits for it. The
/// checkout's `bindings/python/src` (from the current directory: motionctl never looks for the
/// source tree it was built in) goes first on PYTHONPATH, so the pictures work from the
/// checkout's root before the package is installed with pip; what the module prints goes to
/// this process's output.
enum PythonPlot {
    static func run(python: String, module: String, arguments: [String]) throws {
        var environment = ProcessInfo.processInfo.environment
        let source = BoardLocations.locate("bindings/python/src")
        environment["PYTHONPATH"] = [source, environment["PYTHONPATH"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-m", module] + arguments
        process.environment = environment
        do {
            try process.run()
        } catch {
            throw ValidationError("Could not run \(python): \(error). Install Python 3 and matplotlib: sudo apt-get install python3 python3-matplotlib.")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let advice = process.terminationStatus == 127
                ? "\(python) was not found: install python3 and python3-matplotlib, or name an interpreter with --python"
                : "its message is above"
            throw PlotFailure(description: "\(python) -m \(module) failed (exit \(process.terminationStatus)): \(advice).")
        }
    }
}

struct PlotFailure: Error, CustomStringConvertible {
    var description: String
}
