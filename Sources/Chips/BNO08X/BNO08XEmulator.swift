public import SensorBus

/// Faults of the SHTP layer the BNO08x emulator can inject, each into the next transfer or
/// packet it concerns (bus faults, NACK and EIO, come through `inject(_:count:)` as for every
/// emulator).
public enum SHTPFault: Sendable, Equatable {
    /// The next input-report packet loses its last `bytes` bytes, its header agreeing (the
    /// hub cut it short): its last report ends inside the cargo.
    case truncatedPacket(bytes: Int)
    /// The next header read says a length shorter than a header (2): junk on the bus.
    case badLength
    /// The next input-report packet skips a sequence number: one packet lost.
    case sequenceGap
    /// The next header read and the packet read that follows disagree on the length (a hub
    /// that moved on between them).
    case headerChange
}

/// A BNO085/BNO086 as its I2C host sees it: SHTP packets (`SHTPTransport`'s other side) and the
/// SH-2 messages this project uses. After power-up (and `reset`) it queues the advertisement
/// (channel 0) and "reset complete" (channel 1); it answers the executable reset, Product ID
/// Request (0xF9, with a 0xF8 response) and Set Feature (0xFD, with a Get Feature Response 0xFC),
/// and sends every enabled input report at its interval, batched per instant behind a Base
/// Timestamp Reference (0xFB) on channel 3. Its data-ready line (H_INTN, active low on the
/// chip) falls when a packet waits and rises when none does: for a batch 100 µs after its
/// sample instant (the hub's processing, an assumption), for an answer at once. Each batch's
/// base delta is its samples' time before the fall the host will serve: 1 tick when the line
/// was high, less (down to negative) when it had already fallen for an earlier packet.
///
/// Truth: the same motion and field sources as the other emulators; the rotation vectors are
/// the gyroscope integrated from the identity (not the hub's fusion: its drift, magnetometer
/// corrections and accuracy are not modelled; accuracy estimate 0.05 rad); the step counter
/// follows `steps`; the stability classifier says stationary below 0.05 rad/s, motion above;
/// the activity classifier says still when stationary, walking while steps come, else unknown.
///
/// Output buffer: at most `queueLimit` packets wait; older ones are dropped, as a hub that is
/// not read drops reports, so the host sees a sequence gap.
public final class BNO08XEmulator: I2CBus, EmulatedChip {
    /// What the chip feels at a time in nanoseconds: specific force (m/s²) and angular velocity
    /// (rad/s), chip axes.
    public typealias MotionSource = (Int64) -> (acceleration: (Double, Double, Double), angularVelocity: (Double, Double, Double))

    public let name = "emulated I2C bus"
    public let address: UInt8
    public var motion: MotionSource
    /// The field, µT, chip axes.
    public var field: (Int64) -> (Double, Double, Double)
    /// Steps walked by a time, ns (the step counter's truth).
    public var steps: (Int64) -> Int
    public private(set) var faults = EmulatedBusFaults()
    public var stuckOutput = false
    /// The reports enabled, by report ID: their interval, µs.
    public private(set) var enabledReports: [UInt8: UInt32] = [:]
    /// Set Feature commands and resets the host sent; host writes that were not packets.
    public private(set) var setFeatureCommands = 0
    public private(set) var resetCommands = 0
    public private(set) var malformedWrites = 0
    /// Packets dropped because the host did not read them in time.
    public private(set) var droppedPackets = 0
    public var queueLimit = 64
    /// Why the hub last reset (Product ID Response byte 1): 1 power-on, 2 internal reset.
    public private(set) var resetCause: UInt8 = 1

    private struct Packet {
        var channel: UInt8
        var sequence: UInt8
        var cargo: [UInt8]
    }

    private var queue: [Packet] = []
    /// The packet being read and how much of its cargo the host has taken.
    private var current: Packet?
    private var delivered = 0
    private var sequences = [UInt8](repeating: 0, count: SHTPChannel.count)
    private var reportSequences = [UInt8](repeating: 0, count: 256)
    private var pendingFaults: [SHTPFault] = []
    private var changedHeaderShown = false
    /// When H_INTN fell, while a packet waits (nil: the line is high).
    private var interruptNanoseconds: Int64?
    private var nanoseconds: Int64 = 0
    private var nextSampleNanoseconds: Int64?
    private var lastSampleNanoseconds: Int64?
    private var lastFrame: [UInt8: [UInt8]] = [:]
    /// The integrated orientation (w, x, y, z).
    private var orientation = (1.0, 0.0, 0.0, 0.0)
    private var stepsAtLastClassification = 0
    /// The edge's lag behind the batch's samples: one 100 µs tick.
    static let edgeLagNanoseconds: Int64 = 100_000

    /// At rest, lying face up, in a mid-latitude field (19 µT north, 46 µT down), not walking.
    public init(address: UInt8 = 0x4A, motion: @escaping MotionSource = { _ in ((0, 0, 9.80665), (0, 0, 0)) },
                field: @escaping (Int64) -> (Double, Double, Double) = { _ in (19, 0, -46) }, steps: @escaping (Int64) -> Int = { _ in 0 }) {
        self.address = address
        self.motion = motion
        self.field = field
        self.steps = steps
        reset(cause: 1)
    }

    public func inject(_ fault: BusFault, count: Int? = nil) { faults.inject(fault, count: count) }

    public func inject(_ fault: SHTPFault) { pendingFaults.append(fault) }

    /// The hub resets (unsolicited: a brown-out, its watchdog; or the host's command): reports
    /// off, output dropped, sequence numbers from 0, and the announcements queued.
    public func reset(cause: UInt8 = 2) {
        resetCause = cause
        enabledReports = [:]
        queue = []
        current = nil
        delivered = 0
        interruptNanoseconds = nil
        for index in sequences.indices { sequences[index] = 0 }
        for index in reportSequences.indices { reportSequences[index] = 0 }
        nextSampleNanoseconds = nil
        lastSampleNanoseconds = nil
        // The advertisement: 0x00, then tag-length-value records (SHTP 1000-3535, "advertisement"); these
        // few tags (1 GUID, 2 maximum cargo to host, 3 maximum cargo from host) stand for the
        // real list, which the driver does not read.
        enqueue(SHTPChannel.command, [0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x01, 0x03, 0x02, 0x00, 0x01])
        enqueue(SHTPChannel.executable, [SH2Executable.resetComplete])
    }

    /// Queues a packet; H_INTN falls at `interruptAt` (default: now) unless it is already low.
    private func enqueue(_ channel: UInt8, _ cargo: [UInt8], interruptAt: Int64? = nil) {
        if interruptNanoseconds == nil { interruptNanoseconds = interruptAt ?? nanoseconds }
        var sequence = sequences[Int(channel)]
        if channel == SHTPChannel.inputReports, let index = pendingFaults.firstIndex(of: .sequenceGap) {
            pendingFaults.remove(at: index)
            sequence &+= 1
        }
        sequences[Int(channel)] = sequence &+ 1
        var cargo = cargo
        if channel == SHTPChannel.inputReports,
           let index = pendingFaults.firstIndex(where: { if case .truncatedPacket = $0 { true } else { false } }),
           case .truncatedPacket(let bytes) = pendingFaults[index] {
            pendingFaults.remove(at: index)
            cargo.removeLast(min(bytes, cargo.count))
        }
        queue.append(Packet(channel: channel, sequence: sequence, cargo: cargo))
        if queue.count > queueLimit {
            queue.removeFirst()
            droppedPackets += 1
        }
    }

    // MARK: The hub's clock

    /// The shortest enabled interval, ns: batches come at its multiples.
    private var tickNanoseconds: Int64? { enabledReports.values.min().map { Int64(max(1000, $0)) * 1000 } }

    public func advance(to timeNanoseconds: Int64) {
        defer { nanoseconds = max(nanoseconds, timeNanoseconds) }
        guard let tick = tickNanoseconds else { return }
        var next = nextSampleNanoseconds ?? nanoseconds
        var batches = 0
        while next <= timeNanoseconds && batches < 10_000 {
            sample(at: next, tick: tick)
            next += tick
            batches += 1
        }
        if next <= timeNanoseconds { next = timeNanoseconds }  // a long sleep: catch up without a backlog
        nextSampleNanoseconds = next
    }

    /// H_INTN falls when a packet waits: when it fell if one does, else at the next batch.
    public var nextDataReadyNanoseconds: Int64? {
        if let interruptNanoseconds { return interruptNanoseconds }
        guard let next = nextSampleNanoseconds ?? (tickNanoseconds == nil ? nil : nanoseconds) else { return nil }
        return next + Self.edgeLagNanoseconds
    }

    /// One batch: every enabled report whose interval has come round by `time`.
    private func sample(at time: Int64, tick: Int64) {
        let (acceleration, angularVelocity) = motion(time)
        if let last = lastSampleNanoseconds { integrate(angularVelocity, seconds: Double(time - last) * 1e-9) }
        lastSampleNanoseconds = time
        // Base Timestamp Reference: how long before the line's fall the samples lie, 100 µs ticks.
        let fall = interruptNanoseconds ?? time + Self.edgeLagNanoseconds
        var cargo: [UInt8] = [SH2ReportID.baseTimestamp] + littleEndian(UInt32(bitPattern: Int32(clamping: (fall - time) / 100_000)))
        let stationary = norm(angularVelocity) < 0.05
        for (id, interval) in enabledReports.sorted(by: { $0.key < $1.key }) {
            let period = Int64(max(1000, interval)) * 1000
            // Reports slower than the batch rate come at the batches on their own period.
            guard period <= tick || (time / tick) % max(1, period / tick) == 0 else { continue }
            guard let payload = payload(id, acceleration, angularVelocity, time: time, stationary: stationary) else { continue }
            let frame = stuckOutput ? (lastFrame[id] ?? payload) : payload
            lastFrame[id] = frame
            let sequence = reportSequences[Int(id)]
            reportSequences[Int(id)] = sequence &+ 1
            cargo += [id, sequence, 0x03, 0x00] + frame  // status: accuracy 3 (high), delay 0
        }
        guard cargo.count > 5 else { return }
        enqueue(SHTPChannel.inputReports, cargo, interruptAt: time + Self.edgeLagNanoseconds)
    }

    private func norm(_ v: (Double, Double, Double)) -> Double { (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot() }

    /// q ← q ⊗ (cos(θ/2), sin(θ/2) ω/|ω|) with θ = |ω| dt: exact for a constant rate.
    private func integrate(_ omega: (Double, Double, Double), seconds: Double) {
        let rate = norm(omega)
        guard rate > 0, seconds > 0 else { return }
        let half = rate * seconds / 2
        let (c, s) = (cosine(half), sine(half) / rate)
        let (dw, dx, dy, dz) = (c, omega.0 * s, omega.1 * s, omega.2 * s)
        let (w, x, y, z) = orientation
        var q = (w * dw - x * dx - y * dy - z * dz, w * dx + x * dw + y * dz - z * dy,
                 w * dy - x * dz + y * dw + z * dx, w * dz + x * dy - y * dx + z * dw)
        let length = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
        q = (q.0 / length, q.1 / length, q.2 / length, q.3 / length)
        orientation = q
    }

    /// A report's bytes after its 4-byte common header, in its Q point (1000-3625 §6.5).
    private func payload(_ id: UInt8, _ acceleration: (Double, Double, Double), _ angularVelocity: (Double, Double, Double),
                         time: Int64, stationary: Bool) -> [UInt8]? {
        func counts(_ value: Double, q: Int) -> [UInt8] {
            let raw = Int16(clamping: Int((value * Double(1 << q)).rounded()))
            return [UInt8(truncatingIfNeeded: raw), UInt8(truncatingIfNeeded: raw >> 8)]
        }
        func vector(_ v: (Double, Double, Double), q: Int) -> [UInt8] { counts(v.0, q: q) + counts(v.1, q: q) + counts(v.2, q: q) }
        let quaternion = counts(orientation.1, q: 14) + counts(orientation.2, q: 14) + counts(orientation.3, q: 14) + counts(orientation.0, q: 14)
        switch id {
        case SH2ReportID.accelerometer: return vector(acceleration, q: 8)
        case SH2ReportID.gyroscopeCalibrated: return vector(angularVelocity, q: 9)
        case SH2ReportID.magneticFieldCalibrated: return vector(field(time), q: 4)
        case SH2ReportID.rotationVector: return quaternion + counts(0.05, q: 12)
        case SH2ReportID.gameRotationVector: return quaternion
        case SH2ReportID.stepCounter:
            let total = steps(time)
            return [0, 0, 0, 0, UInt8(truncatingIfNeeded: total), UInt8(truncatingIfNeeded: total >> 8), 0, 0]
        case SH2ReportID.stabilityClassifier:
            return [stationary ? SH2Stability.stationary.rawValue : SH2Stability.motion.rawValue, 0]
        case SH2ReportID.personalActivityClassifier:
            let total = steps(time)
            let walking = total != stepsAtLastClassification
            stepsAtLastClassification = total
            let activity: SH2Activity = stationary && !walking ? .still : walking ? .walking : .unknown
            var confidences = [UInt8](repeating: 0, count: 10)
            confidences[Int(activity.rawValue)] = 100
            return [0x80, activity.rawValue] + confidences  // page 0, end of sequence
        default: return nil
        }
    }

    // MARK: I2CBus

    /// SHTP has no registers: a register write is a 1-byte packet fragment (ignored, counted),
    /// and the read after it is a plain read.
    public func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: buffer.count)
        malformedWrites += 1
        transmit(into: buffer)
    }

    public func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: register, length: values.count + 1)
        receive([register] + Array(values))
    }

    public func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: 0, length: buffer.count)
        transmit(into: buffer)
    }

    public func write(address: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        try faults.check(bus: name, chipAddress: self.address, address: address, register: values.first ?? 0, length: values.count)
        receive(Array(values))
    }

    /// One read: the current packet's header (a continuation's after its first cargo moved),
    /// then as much of its remaining cargo as the read asks for; zeros past the end.
    private func transmit(into buffer: UnsafeMutableRawBufferPointer) {
        for index in buffer.indices { buffer[index] = 0 }
        if buffer.count >= SHTPHeader.size, let index = pendingFaults.firstIndex(of: .badLength) {
            pendingFaults.remove(at: index)
            SHTPHeader(length: 2, channel: SHTPChannel.inputReports, sequence: 0).store(into: buffer)
            return
        }
        if current == nil, !queue.isEmpty {
            current = queue.removeFirst()
            delivered = 0
        }
        guard let packet = current else { return }  // length 0: nothing to send
        let remaining = packet.cargo.count - delivered
        var header = SHTPHeader(length: remaining + SHTPHeader.size, continuation: delivered > 0, channel: packet.channel, sequence: packet.sequence)
        if delivered == 0, let index = pendingFaults.firstIndex(of: .headerChange) {
            if changedHeaderShown {
                pendingFaults.remove(at: index)
                changedHeaderShown = false
                header.length -= 1
            } else {
                changedHeaderShown = true  // the header read shows the true length; the packet read will not
            }
        }
        var scratch = (UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        withUnsafeMutableBytes(of: &scratch) { header.store(into: $0) }
        let headerBytes = [scratch.0, scratch.1, scratch.2, scratch.3]
        for index in 0..<min(SHTPHeader.size, buffer.count) { buffer[index] = headerBytes[index] }
        let moved = max(0, min(buffer.count - SHTPHeader.size, remaining))
        for offset in 0..<moved { buffer[SHTPHeader.size + offset] = packet.cargo[delivered + offset] }
        delivered += moved
        if moved > 0 && delivered >= packet.cargo.count || remaining == 0 {
            current = nil
            if queue.isEmpty { interruptNanoseconds = nil }  // nothing waits: the line rises
        }
    }

    /// One host write: an SHTP packet (anything else is counted and ignored).
    private func receive(_ bytes: [UInt8]) {
        guard bytes.count >= SHTPHeader.size else { malformedWrites += 1; return }
        let header = bytes.withUnsafeBytes { SHTPHeader($0) }
        guard header.length == bytes.count, !header.continuation, Int(header.channel) < SHTPChannel.count else { malformedWrites += 1; return }
        let cargo = Array(bytes[SHTPHeader.size...])
        switch header.channel {
        case SHTPChannel.executable where cargo.first == SH2Executable.reset:
            resetCommands += 1
            reset(cause: 4)  // as an external reset (an assumption: the data sheet does not say which cause a soft reset reports)
        case SHTPChannel.control:
            control(cargo)
        default:
            malformedWrites += cargo.isEmpty ? 1 : 0
        }
    }

    private func control(_ cargo: [UInt8]) {
        switch cargo.first {
        case SH2ReportID.productIDRequest:
            let product = SH2ProductID(resetCause: resetCause, softwareMajor: 3, softwareMinor: 2, softwarePartNumber: 10_004_637,
                                       softwareBuild: 368, softwarePatch: 7)
            enqueue(SHTPChannel.control, product.bytes)
        case SH2ReportID.setFeature:
            guard let feature = cargo.withUnsafeBytes({ SH2Feature($0) }) else { malformedWrites += 1; return }
            setFeatureCommands += 1
            let known = SH2ReportID.length(of: feature.reportID) > 0 && feature.reportID < 0xF0
            if feature.reportIntervalMicroseconds == 0 || !known {
                enabledReports[feature.reportID] = nil
            } else {
                let wasIdle = enabledReports.isEmpty
                enabledReports[feature.reportID] = feature.reportIntervalMicroseconds
                if wasIdle { nextSampleNanoseconds = nanoseconds }
            }
            var response = feature
            if !known { response.reportIntervalMicroseconds = 0 }
            enqueue(SHTPChannel.control, response.bytes(id: SH2ReportID.getFeatureResponse))
        default:
            break
        }
    }
}

/// sin and cos by their Taylor series after reducing to |x| ≤ π/4 (the emulator's small angles,
/// without Foundation; error < 10⁻¹² there).
private func sine(_ x: Double) -> Double {
    guard abs(x) > 0.78 else { return x - x * x * x / 6 + x * x * x * x * x / 120 - x * x * x * x * x * x * x / 5040 }
    return 2 * sine(x / 2) * cosine(x / 2)
}

private func cosine(_ x: Double) -> Double {
    guard abs(x) > 0.78 else { let x2 = x * x; return 1 - x2 / 2 + x2 * x2 / 24 - x2 * x2 * x2 / 720 + x2 * x2 * x2 * x2 / 40320 }
    let c = cosine(x / 2)
    return 2 * c * c - 1
}
