import ArgumentParser
import MotionEngine

/// `motionctl`: run, record and inspect OpenCoreMotion's pipeline from a shell.
@main
struct MotionControl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motionctl",
        abstract: "Run, record and inspect OpenCoreMotion's motion pipeline.",
        discussion: """
            Recordings are CSV files (optionally gzip-compressed) in OpenCoreMotion's recording
            format, version 1: see ../shared/specs/recording-format.md.
            """,
        version: OpenCoreMotionVersion.string,
        subcommands: [Demo.self, Stream.self, Probe.self, IIO.self, Replay.self, Record.self, Info.self, Bench.self, BenchFusion.self, BenchActivity.self,
                      BenchBatched.self, Calibrate.self, Timing.self, Status.self, History.self, Publish.self, Subscribe.self, MQTTLoad.self, Plot.self]
    )
}
