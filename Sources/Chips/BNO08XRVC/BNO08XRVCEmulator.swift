public import SensorBus
import Glibc

/// What can go wrong on an emulated UART-RVC line, each applied to the next frame sent.
public enum RVCLineFault: Sendable, Equatable {
    /// The frame loses `count` bytes from its middle (a receiver overrun, a glitch).
    case droppedBytes(count: Int)
    /// The frame's checksum byte is off by one (a flipped bit the sum catches).
    case corruptedChecksum
    /// These bytes arrive just before the frame (noise on the wire, a hub talking at another baud rate).
    case garbage([UInt8])
}

/// A BNO085/BNO086 in UART-RVC mode as its host's UART sees it: every 10 ms of board time a
/// 19-byte frame (BNO080 data sheet 1000-3927 §1.3.5.2) made from what the hub feels, its
/// attitude as yaw, pitch, roll (z, then y, then x) rounded to 0.01° and its acceleration to
/// 1 mg. A frame's bytes all arrive at its time (the 1.65 ms they take at 115200 baud are not
/// modelled). The receive queue holds 4096 bytes, as Linux's tty buffer does; bytes past it
/// are lost (`overrunBytes`).
///
/// At reset, before its first frame, the hub announces itself in text (1000-3927 §5.1: "%Hillcrest
/// Labs 10003608", "%SW Ver 3.2.x", "%(c) 2017 Hillcrest Laboratories, Inc.", sent here as
/// printed there, one line each): bytes the driver's scanner skips and counts.
///
/// Faults: `inject` (dropped bytes, a bad checksum, garbage) for the next frame; `stalled`
/// (the line carries nothing: a loose wire; the hub runs on, so its index jumps when the
/// line comes back); `stuckOutput` (frames repeat the last values, their index still counting).
public final class BNO08XRVCEmulator: ByteStream, EmulatedChip {
    /// Specific force in chip axes, m/s², and attitude chip axes → the world (w, x, y, z).
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), attitude: (Double, Double, Double, Double))

    public static let queueCapacity = 4096
    public let name = "emulated UART"
    public var motion: MotionSource
    public var stalled = false
    public var stuckOutput = false
    /// Frames the hub made (sent or not).
    public private(set) var framesMade = 0
    public private(set) var overrunBytes = 0
    /// The frames sent, newest last, as made (before any fault spoiled their bytes): what a
    /// test compares the driver's output with.
    public private(set) var sentFrames: [(timeNanoseconds: Int64, frame: RVCFrame)] = []
    private var faults: [RVCLineFault] = []
    private var queue: [UInt8] = []
    private var readOffset = 0
    private var nextFrameNanoseconds: Int64 = 0
    private var index: UInt8 = 0
    private var lastFrame: RVCFrame?

    /// The start-up announcement (§5.1), sent once before the first frame.
    public static let announcement = Array("%Hillcrest Labs 10003608\n%SW Ver 3.2.x\n%(c) 2017 Hillcrest Laboratories, Inc.\n".utf8)

    public init(motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (1, 0, 0, 0)) }) {
        self.motion = motion
        queue = Self.announcement
    }

    public func inject(_ fault: RVCLineFault) { faults.append(fault) }

    public func advance(to timeNanoseconds: Int64) {
        while nextFrameNanoseconds <= timeNanoseconds {
            send(makeFrame(at: nextFrameNanoseconds), at: nextFrameNanoseconds)
            nextFrameNanoseconds += 10_000_000
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let count = min(buffer.count, queue.count - readOffset)
        for offset in 0..<count { buffer[offset] = queue[readOffset + offset] }
        readOffset += count
        if readOffset == queue.count {
            queue.removeAll(keepingCapacity: true)
            readOffset = 0
        }
        return count
    }

    private func makeFrame(at time: Int64) -> RVCFrame {
        defer { index &+= 1; framesMade += 1 }
        if stuckOutput, var frame = lastFrame {
            frame.index = index
            return frame
        }
        let (acceleration, q) = motion(time)
        let (yaw, pitch, roll) = Self.eulerAngles(q)
        func milliG(_ value: Double) -> Int16 { Int16(clamping: Int((value / 9.80665 * 1000).rounded())) }
        func centidegrees(_ radians: Double) -> Int16 { Int16((radians * 18_000 / .pi).rounded()) }
        let frame = RVCFrame(index: index, yawCentidegrees: centidegrees(yaw), pitchCentidegrees: centidegrees(pitch),
                             rollCentidegrees: centidegrees(roll),
                             accelerationMilliG: (milliG(acceleration.0), milliG(acceleration.1), milliG(acceleration.2)))
        lastFrame = frame
        return frame
    }

    /// Z-Y-X angles (yaw, pitch, roll), radians, of the rotation q = qz(yaw) ⊗ qy(pitch) ⊗ qx(roll).
    static func eulerAngles(_ q: (Double, Double, Double, Double)) -> (Double, Double, Double) {
        let (w, x, y, z) = q
        let yaw = atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
        let pitch = asin(max(-1, min(1, 2 * (w * y - z * x))))
        let roll = atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
        return (yaw, pitch, roll)
    }

    private func send(_ frame: RVCFrame, at time: Int64) {
        guard !stalled else { return }
        sentFrames.append((time, frame))
        if sentFrames.count > 1024 { sentFrames.removeFirst(512) }
        var bytes = [UInt8](repeating: 0, count: RVCFrame.length)
        bytes.withUnsafeMutableBytes { frame.encode(into: $0) }
        if !faults.isEmpty {
            switch faults.removeFirst() {
            case .droppedBytes(let count): bytes.removeSubrange(5..<min(RVCFrame.length, 5 + count))
            case .corruptedChecksum: bytes[RVCFrame.length - 1] &+= 1
            case .garbage(let noise): bytes.insert(contentsOf: noise, at: 0)
            }
        }
        let room = Self.queueCapacity - (queue.count - readOffset)
        overrunBytes += max(0, bytes.count - room)
        queue.append(contentsOf: bytes.prefix(max(0, room)))
    }
}
