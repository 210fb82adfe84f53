import ArgumentParser
import Glibc
import MotionEngine

/// `motionctl plot REPLAY_DIR`: pictures of what `motionctl replay` wrote, drawn by the Python
/// package's `opencoremotion.plot` with matplotlib (Debian's python3-matplotlib), not by a
/// plotting library written here. The checkout's `bindings/python/src` goes first on
/// PYTHONPATH, so it works before the package is installed with pip; with `--recording`, the
/// package reads the recording through the installed C library (or $OPENCOREMOTION_LIBRARY).
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
        var arguments = [python, "-m", "opencoremotion.plot", replay]
        if let recording { arguments += ["--recording", recording] }
        if let out { arguments += ["--out", out] }
        let source = BoardDescription.repositoryRoot + "/bindings/python/src"
        if let existing = getenv("PYTHONPATH"), existing.pointee != 0 {
            setenv("PYTHONPATH", source + ":" + String(cString: existing), 1)
        } else {
            setenv("PYTHONPATH", source, 1)
        }
        let cArguments = arguments.map { strdup($0) } + [nil]
        _ = execvp(python, cArguments)  // returns only on failure
        let reason = String(cString: strerror(errno))
        throw ValidationError(
            "Could not run \(python): \(reason). Install Python 3 and matplotlib (sudo apt-get install python3 python3-matplotlib), or name an interpreter with --python.")
    }
}
