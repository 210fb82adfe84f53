public import FixedPoint
public import MotionAlgorithms
public import SensorBus

/// A BNO085/BNO086 in UART-RVC mode (PS0 high, PS1 low: BNO080 data sheet 1000-3927 §1.3,
/// figure 1-5): the hub sends a frame every 10 ms by itself and takes no commands, so the
/// driver only listens. Each frame gives the engine one accelerometer reading (chip axes,
/// m/s²) and the hub's own attitude (`latestAttitude`); there is no gyroscope or magnetometer
/// in this mode.
///
/// A frame carries no timestamp: the newest frame of a read is stamped at the read's time and
/// those before it a period (10 ms) apart. What the line spoils is counted (`scanner`) and
/// skipped, never passed on.
public final class BNO08XRVCDriver<Stream: ByteStream>: SelfRecoveringDriver {
    /// 100 Hz (§1.3.5.2).
    public static var samplePeriodNanoseconds: Int64 { 10_000_000 }

    public let stream: Stream
    /// The frame finder's counts: checksum and range errors, resynchronisations, discarded
    /// bytes, frames lost (index gaps).
    public private(set) var scanner = RVCFrameScanner()
    /// The newest frame's attitude (chip axes → the hub's frame, Q2.30) and its stamp, ns; nil
    /// before the first frame.
    public private(set) var latestAttitude: (timestampNanoseconds: Int64, quaternion: Quaternion)?
    /// The hub takes no commands: nothing to re-initialise.
    public var recoveries: Int { 0 }
    /// Bytes read but not yet scanned (a frame's start) followed by room for the next read.
    private let buffer: UnsafeMutableRawBufferPointer
    private var pending = 0

    public init(stream: Stream) {
        self.stream = stream
        buffer = .allocate(byteCount: 64 * RVCFrame.length, alignment: 1)
    }

    deinit { buffer.deallocate() }

    /// Reads what has arrived and writes one acceleration reading per good frame into
    /// `readings` (at most its count: a full buffer means more may wait). Returns how many.
    public func read(into readings: UnsafeMutableBufferPointer<SensorReading>, nowNanoseconds: Int64) throws(ChipError) -> Int {
        // No more bytes than frames the caller can take, so the stamps below stay right.
        let room = min(buffer.count, readings.count * RVCFrame.length)
        var filled = pending
        while filled < room {
            let count: Int
            do { count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<room])) } catch { throw .serial(error) }
            if count == 0 { break }
            filled += count
        }
        var found = 0
        var newest: RVCFrame?
        let used = scanner.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<filled])) { frame in
            readings[found] = SensorReading(timestampNanoseconds: 0, value: .acceleration(frame.acceleration))
            found += 1
            newest = frame
        }
        pending = filled - used
        for offset in 0..<pending { buffer[offset] = buffer[used + offset] }  // ≤ 18 bytes, overlapping
        for index in 0..<found {
            readings[index].timestampNanoseconds = nowNanoseconds - Int64(found - 1 - index) * Self.samplePeriodNanoseconds
        }
        if let newest { latestAttitude = (nowNanoseconds, newest.attitude) }
        return found
    }
}
