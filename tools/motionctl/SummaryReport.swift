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
                saturated: entry.saturatedSamples)
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
                "saturated": row.saturated,
            ]
        }
        let document: [String: Any] = [
            "recording": source, "samples": summary.totalSamples,
            "skipped_unknown_sensor_rows": skippedUnknownSensorRows, "sensors": sensors,
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

    /// SI units per raw LSB: Q16.16 for all but pressure, which is Q24.8 (see SensorValue).
    var displayScale: Double { self == .barometer ? 1.0 / 256 : 1.0 / 65536 }
}
