/// Doubles as plain decimal text (never exponent notation) with the fewest digits that read
/// back to the same Double: Swift's `description` gives the shortest round-trip digits but
/// switches to exponent form below 10⁻⁴ and from 2⁵³ on ("1e-05"); the exponent is moved into
/// the digits here. Used by the recording writer and the replay outputs.
public enum DecimalFormatting {
    public static func format(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }  // "9.0" → "9"
        guard let exponentIndex = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text == "-0" ? "0" : text
        }
        guard let exponent = Int(text[text.index(after: exponentIndex)...]) else { return text }
        var mantissa = text[..<exponentIndex]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        // Mantissa d.ddd: integer digits before the point, fraction after.
        let parts = mantissa.split(separator: ".", maxSplits: 1)
        let integerDigits = String(parts[0])
        let fractionDigits = parts.count > 1 ? String(parts[1]) : ""
        let digits = integerDigits + fractionDigits
        let pointPosition = integerDigits.count + exponent  // digits before the decimal point
        var result: String
        if pointPosition <= 0 {
            result = "0." + String(repeating: "0", count: -pointPosition) + digits
        } else if pointPosition >= digits.count {
            result = digits + String(repeating: "0", count: pointPosition - digits.count)
        } else {
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            result = String(digits[..<split]) + "." + String(digits[split...])
        }
        return negative ? "-" + result : result
    }
}
