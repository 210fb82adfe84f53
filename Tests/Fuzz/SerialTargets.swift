// A UART's bytes as the BNO08x UART-RVC driver receives them: a line (noise, a wrong baud rate,
// a hub reset mid-frame) can bring any bytes in any split across reads, and the driver must
// keep every good frame and drop the rest, never trap, never grow.
internal import Chips
internal import MotionAlgorithms
internal import SensorBus

/// A stream that hands out the input in pieces whose sizes the input's first byte sets.
final class FuzzedStream: ByteStream {
    let name = "fuzz"
    private let bytes: UnsafeRawBufferPointer
    private var offset = 1
    private var piece: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        piece = 1 + Int(bytes.first ?? 0) % 40
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let count = min(buffer.count, piece, bytes.count - offset)
        for index in 0..<max(0, count) { buffer[index] = bytes[offset + index] }
        offset += max(0, count)
        return max(0, count)
    }
}

enum SerialTargets {
    /// Reads the input through the driver a piece at a time; every reading is a finite
    /// acceleration no larger than the int16 mg range allows, and the scanner never keeps
    /// more than a frame's start between reads.
    static func rvcStream(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let driver = BNO08XRVCDriver(stream: FuzzedStream(bytes))
        let readings = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 8)
        defer { readings.deallocate() }
        var frames = 0
        for step in 0...bytes.count {
            guard let count = try? driver.read(into: readings, nowNanoseconds: Int64(step) * 5_000_000) else { return }
            fuzzCheck(count <= readings.count, "more readings than room")
            for reading in readings[0..<count] {
                guard case .acceleration(let a) = reading.value else { fuzzCheck(false, "not an acceleration"); return }
                fuzzCheck([a.x, a.y, a.z].allSatisfy { abs($0.doubleValue) <= 321.4 }, "acceleration beyond ±32768 mg")
            }
            frames += count
        }
        fuzzCheck(driver.scanner.frames == frames, "frames counted \(driver.scanner.frames), read \(frames)")
        fuzzCheck(driver.scanner.discardedBytes + frames * RVCFrame.length <= bytes.count - 1, "more bytes accounted for than came")
    }

    /// Two good frames, then one after garbage, in pieces of 7 bytes.
    static func seeds() -> [[UInt8]] {
        var stream: [UInt8] = [6]
        for index in 0..<3 {
            var frame = [UInt8](repeating: 0, count: RVCFrame.length)
            frame.withUnsafeMutableBytes {
                RVCFrame(index: UInt8(index), yawCentidegrees: -1234, pitchCentidegrees: 450, rollCentidegrees: 17_999,
                         accelerationMilliG: (-371, -20, 977)).encode(into: $0)
            }
            if index == 2 { stream += [0xAA, 0x13, 0xAA] }
            stream += frame
        }
        return [stream]
    }
}
