/// Timestamps as the recording format writes them: decimal seconds with 6 decimals when the
/// time is a whole number of microseconds, else 9 (nanoseconds), so writing is exact.
public enum TimestampFormatting {
    public static func format(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let seconds = magnitude / 1_000_000_000
        var fraction = magnitude % 1_000_000_000
        var digits = 9
        if fraction % 1000 == 0 {
            fraction /= 1000
            digits = 6
        }
        let fractionText = String(fraction)
        return "\(sign)\(seconds).\(String(repeating: "0", count: digits - fractionText.count))\(fractionText)"
    }
}
