import Chips
import FixedPoint
import Testing

@Suite struct SH2ReportTests {
    static func decode(_ bytes: [UInt8]) -> SH2InputReport? { bytes.withUnsafeBytes { SH2Decoder.report($0) } }

    static func walk(_ cargo: [UInt8]) -> (reports: [(SH2InputReport, Int64)], summary: SH2BatchSummary) {
        var reports: [(SH2InputReport, Int64)] = []
        let summary = cargo.withUnsafeBytes { SH2Decoder.walk($0) { reports.append(($0, $1)) } }
        return (reports, summary)
    }

    /// 1000-3625 §6.5 "Accelerometer": Q8 m/s²; status bits 1:0 accuracy, bits 7:2 the delay's upper bits.
    @Test func theAccelerometerIsQ8MetresPerSecondSquaredWithAccuracyAndDelay() throws {
        // x 0x0980 = 2432 / 256 = 9.5, y 0xFF00 = −1, z 1/256; status 0x07: accuracy 3, delay
        // upper bits 1, lower 0x10: 0x110 = 272 ticks = 27.2 ms.
        let report = try #require(Self.decode([0x01, 0x07, 0x07, 0x10, 0x80, 0x09, 0x00, 0xFF, 0x01, 0x00]))
        #expect(report.id == 0x01 && report.sequence == 7 && report.accuracy == 3 && report.delayTicks == 272)
        #expect(report.value == .acceleration(Vector3(x: Q16_16(rawValue: 622_592), y: Q16_16(rawValue: -65_536), z: Q16_16(rawValue: 256))))
    }

    /// Gyroscope (calibrated) Q9 rad/s, field (calibrated) Q4 µT (§6.5).
    @Test func theGyroscopeIsQ9AndTheFieldQ4() throws {
        let gyroscope = try #require(Self.decode([0x02, 0, 0x02, 0, 0x00, 0x02, 0x00, 0xFF, 0x00, 0x00]))
        #expect(gyroscope.value == .angularVelocity(Vector3(x: Q16_16(rawValue: 65_536), y: Q16_16(rawValue: -32_768), z: Q16_16(rawValue: 0))))
        #expect(gyroscope.accuracy == 2)
        let field = try #require(Self.decode([0x03, 0, 0x03, 0, 0x10, 0x00, 0xE0, 0xFF, 0x30, 0x02]))
        #expect(field.value == .magneticField(Vector3(x: Q16_16(1), y: Q16_16(-2), z: Q16_16(35))))
    }

    /// Rotation vector (§6.5): i, j, k, real Q14 and the accuracy estimate Q12 rad; the
    /// game rotation vector has no estimate. 11585 / 2¹⁴ = 0.70709: 90° about z.
    @Test func rotationVectorsAreQ14QuaternionsAndTheEstimateQ12Radians() throws {
        let quaternion = Quaternion(w: Q2_30(rawValue: 11_585 << 16), x: Q2_30(rawValue: 0), y: Q2_30(rawValue: 0), z: Q2_30(rawValue: 11_585 << 16))
        let rotation = try #require(Self.decode([0x05, 1, 0x03, 0, 0, 0, 0, 0, 0x41, 0x2D, 0x41, 0x2D, 0x00, 0x08]))
        #expect(rotation.value == .rotationVector(quaternion, accuracy: Q16_16(0.5)))
        let game = try #require(Self.decode([0x08, 1, 0x01, 0, 0, 0, 0, 0, 0x41, 0x2D, 0x41, 0x2D]))
        #expect(game.value == .gameRotationVector(quaternion) && game.accuracy == 1)
    }

    /// Step counter, stability classifier, personal activity classifier (§6.5).
    @Test func stepsStabilityAndActivity() throws {
        let steps = try #require(Self.decode([0x11, 0, 0, 0, 0xE8, 0x03, 0, 0, 0x34, 0x12, 0, 0]))
        #expect(steps.value == .stepCount(steps: 0x1234, latencyMicroseconds: 1000))
        #expect(Self.decode([0x13, 0, 0, 0, 0x04, 0])?.value == .stability(.motion))
        #expect(Self.decode([0x13, 0, 0, 0, 0x09, 0])?.value == .stability(nil))  // outside the table
        var activity: [UInt8] = [0x1E, 0, 0, 0, 0x80, 0x06] + [UInt8](repeating: 0, count: 10)
        activity[6 + 6] = 87
        #expect(Self.decode(activity)?.value == .activity(.walking, confidence: 87))
        activity[5] = 0xC8  // a most likely state outside the table: no confidence read out of bounds
        #expect(Self.decode(activity)?.value == .activity(nil, confidence: 0))
    }

    @Test func tooShortOrUnknownReportsAreNotDecoded() {
        #expect(Self.decode([0x01, 0, 0, 0, 1, 2, 3]) == nil)
        #expect(Self.decode([0x77, 0, 0, 0, 1, 2, 3, 4, 5, 6]) == nil)
        #expect(Self.decode([]) == nil)
    }

    /// The timestamp reports: the base delta counts back from the reference, a rebase moves it, each report's
    /// delay forward: time = (−base + rebases + delay) × 100 µs.
    @Test func aBatchPlacesEachReportByBaseRebaseAndDelay() {
        let cargo: [UInt8] = [0xFB, 10, 0, 0, 0,                               // base: 1 ms before the reference
                              0x01, 0, 0x03, 0x00, 0, 1, 0, 0, 0, 0,           // delay 0: −1000 µs
                              0xFA, 4, 0, 0, 0,                                // rebase +4 ticks
                              0x02, 0, 0x03, 0x02, 0, 0, 0, 0, 0, 0,           // delay 2: (−10 + 4 + 2) × 100 = −400 µs
                              0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0,                 // linear acceleration: known, skipped
                              0x13, 0, 0, 0x05, 0x02, 0]                       // stability, delay 5: −100 µs
        let (reports, summary) = Self.walk(cargo)
        #expect(reports.map(\.1) == [-1000, -400, -100])
        #expect(reports.map(\.0.id) == [0x01, 0x02, 0x13])
        #expect(summary.decoded == 3 && summary.skipped == 1 && summary.unknownID == nil && !summary.truncated)
    }

    @Test func aBatchCutShortOrWithAnUnknownIDKeepsWhatCameBefore() {
        let accelerometer: [UInt8] = [0x01, 0, 0x03, 0, 0, 1, 0, 0, 0, 0]
        let cut = Self.walk(accelerometer + [0x02, 0, 0x03, 0, 1, 2])
        #expect(cut.reports.count == 1 && cut.summary.truncated)
        let unknown = Self.walk(accelerometer + [0x77] + accelerometer)
        #expect(unknown.reports.count == 1 && unknown.summary.unknownID == 0x77)
    }

    /// Whatever the bytes, the walk ends, reads only the cargo, and decodes no more reports than fit.
    @Test func anyBytesAreWalkedSafely() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let ids: [UInt8] = [0x01, 0x02, 0x03, 0x05, 0x08, 0x11, 0x13, 0x1E, 0xFA, 0xFB, 0x04, 0x77]
        for _ in 0..<3000 {
            let count = Int(next() % 80)
            // Bytes biased towards report IDs, so that walks go deep.
            let cargo = (0..<count).map { _ in next() % 3 == 0 ? ids[Int(next()) % ids.count] : next() }
            let (reports, summary) = Self.walk(cargo)
            #expect(reports.count == summary.decoded && summary.decoded + summary.skipped <= count / 5)
        }
    }

    /// The Product ID Response; Set Feature with its interval in µs.
    @Test func productIDAndSetFeatureBytes() throws {
        let response: [UInt8] = [0xF8, 0x01, 3, 2, 0x9D, 0xA8, 0x98, 0x00, 0x70, 0x01, 0, 0, 7, 0, 0, 0]
        let product = try #require(response.withUnsafeBytes { SH2ProductID($0) })
        #expect(product == SH2ProductID(resetCause: 1, softwareMajor: 3, softwareMinor: 2, softwarePartNumber: 10_004_637, softwareBuild: 368, softwarePatch: 7))
        #expect(product.bytes == response)
        #expect(Array(response[0..<15]).withUnsafeBytes { SH2ProductID($0) } == nil)
        let feature = SH2Feature(reportID: 0x01, reportIntervalMicroseconds: 10_000)
        #expect(feature.bytes() == [0xFD, 0x01, 0, 0, 0, 0x10, 0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(feature.bytes().withUnsafeBytes { SH2Feature($0) } == feature)
        #expect(SH2ProductID.request == [0xF9, 0x00])
    }
}
