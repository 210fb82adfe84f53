import Chips
import FixedPoint
import Testing

/// The UART-RVC frame (BNO080 data sheet 1000-3927 §1.3.5.2): its fields, checksum, values in
/// SI and the attitude's rotation order, from frames worked out by hand from that section.
@Suite struct RVCFrameTests {
    /// §1.3.5.2's own example message.
    static let datasheetExample: [UInt8] = [0xAA, 0xAA, 0xDE, 0x01, 0x00, 0x92, 0xFF, 0x25, 0x08, 0x8D, 0xFE, 0xEC, 0xFF, 0xD1, 0x03, 0x00, 0x00, 0x00, 0xE7]
    /// Index 5, yaw −90.00° (−9000 = 0xDCD8), pitch 45.00° (4500 = 0x1194), roll −179.99°
    /// (−17999 = 0xB9B1), acceleration (0, 0, −1000 mg: face down). Sum of bytes 2…17:
    /// 05+D8+DC+94+11+B1+B9+18+FC = 0x4DC → 0xDC.
    static let negativeAngles: [UInt8] = [0xAA, 0xAA, 0x05, 0xD8, 0xDC, 0x94, 0x11, 0xB1, 0xB9, 0x00, 0x00, 0x00, 0x00, 0x18, 0xFC, 0x00, 0x00, 0x00, 0xDC]
    /// Header bytes inside the frame: index 0xAA, yaw 1.70° (170 = 0x00AA), z 1000 mg, reserved
    /// 1 2 3 (summed like the rest). Sum: AA+AA+E8+03+01+02+03 = 0x245 → 0x45.
    static let headerLikeData: [UInt8] = [0xAA, 0xAA, 0xAA, 0xAA, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE8, 0x03, 0x01, 0x02, 0x03, 0x45]

    static func scan(_ bytes: [UInt8], _ scanner: inout RVCFrameScanner) -> (frames: [RVCFrame], used: Int) {
        var frames: [RVCFrame] = []
        let used = bytes.withUnsafeBytes { scanner.scan($0) { frames.append($0) } }
        return (frames, used)
    }

    static func frame(_ index: UInt8, yaw: Int16 = 0, pitch: Int16 = 0, roll: Int16 = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: RVCFrame.length)
        bytes.withUnsafeMutableBytes {
            RVCFrame(index: index, yawCentidegrees: yaw, pitchCentidegrees: pitch, rollCentidegrees: roll, accelerationMilliG: (0, 0, 1000)).encode(into: $0)
        }
        return bytes
    }

    @Test func theDataSheetsExampleDecodesToItsStatedFields() {
        var scanner = RVCFrameScanner()
        let (frames, used) = Self.scan(Self.datasheetExample, &scanner)
        #expect(used == 19 && frames.count == 1 && scanner.checksumErrors == 0)
        let expected = RVCFrame(index: 222, yawCentidegrees: 1, pitchCentidegrees: -110, rollCentidegrees: 2085, accelerationMilliG: (-371, -20, 977))
        #expect(frames.first == expected)
        var encoded = [UInt8](repeating: 0, count: 19)
        encoded.withUnsafeMutableBytes { expected.encode(into: $0) }
        #expect(encoded == Self.datasheetExample, "the checksum 0xE7 is the sum of bytes 2…17")
    }

    @Test func negativeAnglesAndHeaderBytesInsideTheDataDecode() {
        var scanner = RVCFrameScanner()
        let (frames, _) = Self.scan(Self.negativeAngles + Self.headerLikeData, &scanner)
        #expect(frames == [RVCFrame(index: 5, yawCentidegrees: -9000, pitchCentidegrees: 4500, rollCentidegrees: -17999, accelerationMilliG: (0, 0, -1000)),
                           RVCFrame(index: 0xAA, yawCentidegrees: 170, pitchCentidegrees: 0, rollCentidegrees: 0, accelerationMilliG: (0, 0, 1000), reserved: (1, 2, 3))])
        #expect(scanner.resynchronisations == 0 && scanner.discardedBytes == 0)
        #expect(scanner.lostFrames == 164, "index 5 then 0xAA: 164 frames between them")
    }

    /// −371 mg is −3.638 m/s² (§1.3.5.2's example): mg × 9.80665 / 1000, to within a Q16.16 LSB.
    @Test func accelerationIsInMetresPerSecondSquared() {
        let frame = RVCFrame(index: 0, yawCentidegrees: 0, pitchCentidegrees: 0, rollCentidegrees: 0, accelerationMilliG: (-371, 1000, -32768))
        let a = frame.acceleration
        #expect(abs(a.x.doubleValue - -3.63826715) < 1.0 / 65536)
        #expect(abs(a.y.doubleValue - 9.80665) < 1.0 / 65536)
        #expect(abs(a.z.doubleValue - -321.3443) < 1.0 / 65536)
    }

    /// Yaw about z, then pitch about y, then roll about x (§1.3.5.2's order): with yaw 90° and
    /// roll 90°, chip z goes to −y under the roll, then to +x under the yaw; a pitch of 30° turns
    /// x towards −z (right-handed about y).
    @Test func theAttitudeAppliesYawThenPitchThenRoll() {
        func rotated(_ bytes: [UInt8], _ v: (Double, Double, Double)) -> (Double, Double, Double) {
            var scanner = RVCFrameScanner()
            let frame = Self.scan(bytes, &scanner).frames[0]
            let r = frame.attitude.rotate(Vector3(x: Q16_16(v.0), y: Q16_16(v.1), z: Q16_16(v.2)))
            return (r.x.doubleValue, r.y.doubleValue, r.z.doubleValue)
        }
        func near(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Bool {
            abs(a.0 - b.0) < 1e-4 && abs(a.1 - b.1) < 1e-4 && abs(a.2 - b.2) < 1e-4
        }
        let zUp = rotated(Self.frame(0, yaw: 9000, roll: 9000), (0, 0, 1))
        #expect(near(zUp, (1, 0, 0)), "\(zUp)")
        let xAfterPitch = rotated(Self.frame(0, pitch: 3000), (1, 0, 0))
        #expect(near(xAfterPitch, (0.8660254, 0, -0.5)), "\(xAfterPitch)")
        let xAfterYaw = rotated(Self.frame(0, yaw: -9000), (1, 0, 0))
        #expect(near(xAfterYaw, (0, -1, 0)), "\(xAfterYaw)")
    }

    /// Garbage before a frame, a frame cut by the read and finished by the next, a bad
    /// checksum and lost bytes: each skipped to the next header and counted, every good
    /// frame kept.
    @Test func theScannerResynchronisesAndCountsWhatItSkips() {
        var scanner = RVCFrameScanner()
        let garbage: [UInt8] = [0x13, 0xAA, 0x55, 0xFF, 0xAA]
        let first = Self.frame(1), second = Self.frame(2)
        var stream = garbage + first + second.prefix(10)
        var (frames, used) = Self.scan(stream, &scanner)
        #expect(frames.map(\.index) == [1] && used == garbage.count + 19, "the cut frame waits")
        #expect(scanner.resynchronisations == 1 && scanner.discardedBytes == garbage.count)
        #expect(scanner.checksumErrors == 1, "the garbage's last 0xAA and the frame's first looked like a header")
        stream = Array(stream[used...]) + second.suffix(9)
        (frames, used) = Self.scan(stream, &scanner)
        #expect(frames.map(\.index) == [2] && used == 19)

        var badSum = Self.frame(3)
        badSum[18] &+= 1
        var cut = Self.frame(4)
        cut.removeSubrange(7..<10)
        (frames, _) = Self.scan(badSum + cut + Self.frame(5) + Self.frame(6), &scanner)
        #expect(frames.map(\.index) == [5, 6])
        #expect(scanner.checksumErrors == 3, "the bad sum, and the cut frame read into the next frame's header")
        #expect(scanner.resynchronisations == 2, "one run of skipped bytes, from the bad frame to frame 5")
        #expect(scanner.lostFrames == 2, "frames 3 and 4, from the index gap")
        #expect(scanner.frames == 4)
    }

    /// A frame that sums right but whose pitch is beyond ±90° is a misaligned read: dropped.
    @Test func anAngleOutOfItsRangeIsDropped() {
        var scanner = RVCFrameScanner()
        let (frames, _) = Self.scan(Self.frame(1, pitch: 9001) + Self.frame(2), &scanner)
        #expect(frames.map(\.index) == [2] && scanner.rangeErrors == 1)
    }

    /// Bytes that cannot start a frame are dropped at once; a lone 0xAA at the end is kept.
    @Test func aTailOfNoiseIsNotKept() {
        var scanner = RVCFrameScanner()
        #expect(Self.scan([0x01, 0x02, 0x03], &scanner).used == 3)
        #expect(Self.scan([0x01, 0xAA], &scanner).used == 1)
        #expect(Self.scan([0xAA, 0x01], &scanner).used == 2)
        #expect(scanner.discardedBytes == 6 && scanner.resynchronisations == 1)
    }
}
