import Foundation
import MotionAlgorithms
import MotionEngine
import Recordings

/// The per-sensor summary of a run, as a table for people and as `summary.json` for tools.
struct SummaryReport {
    let summary: StreamSummary
    /// The recording or board the samples came from.
    let source: String
    var skippedUnknownSensorRows = 0

    init(summary: StreamSummary, source: String, skippedUnknownSensorRows: Int = 0) {
        self.summary = summary
        self.source = source
        self.skippedUnknownSensorRows = skippedUnknownSensorRows
    }

    init(playback: RecordingPlayback) {
        self.init(summary: playback.summary, source: playback.path, skippedUnknownSensorRows: playback.skippedUnknownSensorRows)
    }

    struct Row {
        let name: String
        let unit: String
        let samples: Int64
        let rateHertz: Double
        let gaps: Int64
        let longestGapSeconds: Double
        let mean: [Double]
        let levelMean: Double
        let levelMinimum: Double
        let levelMaximum: Double
        let saturated: Int64
        /// The sensor's first and last sample on the recording's clock, s.
        let firstSeconds: Double
        let lastSeconds: Double
    }

    var rows: [Row] {
        summary.activeChannels.map { channel in
            let entry = summary[channel]
            let mean = entry.total.meanRaw
            let scale = channel.displayScale
            let axes = channel.isVector ? [mean.x, mean.y, mean.z] : [mean.x]
            return Row(
                name: channel.displayName, unit: channel.unit, samples: entry.stream.sampleCount,
                rateHertz: Double(entry.stream.averageRateMilliHertz) / 1000,
                gaps: entry.stream.gapCount,
                longestGapSeconds: Double(entry.stream.longestGapNanoseconds) / 1e9,
                mean: axes.map { Double($0) * scale },
                levelMean: Double(mean.level) * scale,
                levelMinimum: Double(entry.total.levelMinimum) * scale,
                levelMaximum: Double(entry.total.levelMaximum) * scale,
                saturated: entry.saturatedSamples,
                firstSeconds: Double(entry.stream.firstTimestampNanoseconds) / 1e9,
                lastSeconds: Double(entry.stream.lastTimestampNanoseconds) / 1e9)
        }
    }

    /// What a person must be told about the run: each sensor that started late or stopped early
    /// (`StreamSummary.shortStreams`), with what that costs the outputs.
    var warnings: [String] {
        summary.shortStreams.flatMap { short -> [String] in
            let name = short.channel.displayName
            func s(_ nanoseconds: Int64) -> String { String(format: "%.2f s", Double(nanoseconds) / 1e9) }
            var found: [String] = []
            if short.lateNanoseconds > 0 {
                found.append("\(name): its samples begin at \(s(short.firstNanoseconds)), \(s(short.lateNanoseconds)) after the "
                    + "recording's first sample (\(s(short.runFirstNanoseconds))): before that, \(short.channel.absenceCost).")
            }
            if short.earlyNanoseconds > 0 {
                found.append("\(name): its samples end at \(s(short.lastNanoseconds)), \(s(short.earlyNanoseconds)) before the "
                    + "recording's last sample (\(s(short.runLastNanoseconds))): after that, \(short.channel.absenceCost). "
                    + "A chip that stopped (see the board's log), or a recording cut short for this sensor.")
            }
            return found
        }
    }

    func table() -> String {
        var lines = ["sensor         samples   rate Hz  gaps  mean (x, y, z)                   level mean [min, max]"]
        for row in rows {
            let mean = row.mean.map { String(format: "%.3f", $0) }.joined(separator: ", ")
            lines.append(
                row.name.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + String(format: "%9lld %9.2f %5lld  ", row.samples, row.rateHertz, row.gaps)
                    + "(\(mean))".padding(toLength: 32, withPad: " ", startingAt: 0)
                    + String(format: " %.3f [%.3f, %.3f] ", row.levelMean, row.levelMinimum, row.levelMaximum) + row.unit
                    + (row.saturated > 0 ? "  (\(row.saturated) saturated: out of range, clamped)" : ""))
        }
        return lines.joined(separator: "\n")
    }

    func writeJSON(to path: String) throws {
        var sensors: [String: Any] = [:]
        for row in rows {
            sensors[row.name] = [
                "unit": row.unit, "samples": row.samples, "rate_hz": row.rateHertz, "gaps": row.gaps,
                "longest_gap_s": row.longestGapSeconds, "mean": row.mean, "level_mean": row.levelMean,
                "level_min": row.levelMinimum, "level_max": row.levelMaximum,
                "saturated": row.saturated, "first_s": row.firstSeconds, "last_s": row.lastSeconds,
            ]
        }
        let document: [String: Any] = [
            "recording": source, "samples": summary.totalSamples,
            "skipped_unknown_sensor_rows": skippedUnknownSensorRows, "sensors": sensors, "warnings": warnings,
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))
    }
}

extension SensorChannel {
    /// The recording format's name and unit for the sensor ("acc", "m/s²").
    var displayName: String { SensorKind(self).recordingName }
    var unit: String { SensorKind(self).unit }
    var isVector: Bool { SensorKind(self).isVector }

    /// What the outputs lack while this sensor sends nothing.
    var absenceCost: String {
        switch self {
        case .accelerometer: "device motion, the pedometer and activity have no accelerometer"
        case .gyroscope: "device motion (fused at the gyroscope's samples) has no output; the pedometer and activity go on from the accelerometer alone"
        case .magnetometer: "the heading is not corrected (it drifts with the gyroscope's bias; a north frame waits for its first sample)"
        case .barometer: "altitude and floors have no data"
        case .thermometer: "altitude is computed at the last air temperature read"
        }
    }

    /// SI units per raw LSB: Q16.16 for all but pressure, which is Q24.8 (see SensorValue).
    var displayScale: Double { self == .barometer ? 1.0 / 256 : 1.0 / 65536 }
}
