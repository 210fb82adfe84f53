public import SensorBus

/// What one `SHTPTransport.receive()` found.
public enum SHTPReceived: Sendable, Equatable {
    /// The device had nothing to send (a header of length 0).
    case nothing
    /// A whole packet; its cargo is in `SHTPTransport.cargo`.
    case packet(SHTPHeader)
    /// A transfer that was not a usable packet: counted in `framingErrors` and dropped.
    case dropped(SHTPFramingProblem)
}

/// SHTP over I2C (BNO08X data sheet 1000-3927, "I2C"; CEVA's sh2 I2C HAL reads the same
/// way): the host reads the 4-byte header to learn the length, then reads the packet from its
/// start (the device sends the header again, then the cargo). A packet longer than one read
/// (`transferLimit`) continues in later reads, each beginning with a header of its own whose
/// bit 15 says "continuation". The header read takes nothing off the device: only cargo moves
/// it on. Writes are one transfer: header (with the host's own sequence number for the
/// channel) then cargo.
///
/// Fixed storage, allocated once: a received packet lands in a buffer of `capacity` bytes;
/// nothing is allocated per packet. Every length the device sends is checked before it is used.
public final class SHTPTransport<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8
    /// Bytes one read may move (header included): a longer packet comes in several reads.
    public let transferLimit: Int
    /// The longest packet kept (header included); longer ones are drained and dropped.
    public let capacity: Int
    /// The device's sequence numbers, per channel: lost packets are counted there.
    public private(set) var sequences = SHTPSequenceTracker()
    /// Transfers that were not usable packets (`SHTPFramingProblem`), and the latest problem.
    public private(set) var framingErrors = 0
    public private(set) var lastFramingProblem: SHTPFramingProblem?

    /// Header and cargo of the packet being received (allocated once, freed in deinit).
    private let buffer: UnsafeMutableRawBufferPointer
    private var hostSequences = [UInt8](repeating: 0, count: SHTPChannel.count)
    private var cargoLength = 0

    /// `capacity` and `transferLimit` are clamped to at least 16 and 8 bytes.
    public init(bus: Bus, address: UInt8, capacity: Int = 512, transferLimit: Int = 256) {
        self.bus = bus
        self.address = address
        self.capacity = max(16, capacity)
        buffer = .allocate(byteCount: self.capacity, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        self.transferLimit = max(8, transferLimit)
    }

    deinit { buffer.deallocate() }

    /// The latest packet's cargo (valid until the next `receive`).
    public func withCargo<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        body(UnsafeRawBufferPointer(rebasing: buffer[SHTPHeader.size..<(SHTPHeader.size + cargoLength)]))
    }

    /// After the device reset: its sequence numbers (and the host's, as the device expects
    /// them from 0 again) start over.
    public func deviceReset() {
        sequences.deviceReset()
        for index in hostSequences.indices { hostSequences[index] = 0 }
    }

    private func fail(_ problem: SHTPFramingProblem) -> SHTPReceived {
        framingErrors += 1
        lastFramingProblem = problem
        return .dropped(problem)
    }

    private func read(into range: Range<Int>, _ what: @autoclosure () -> String) throws(ChipError) {
        do {
            try bus.read(address: address, into: UnsafeMutableRawBufferPointer(rebasing: buffer[range]))
        } catch {
            throw .bus(error.during(what()))
        }
    }

    /// Reads the next packet, if the device has one: header read, then the packet read (and
    /// its continuations). Bus errors are thrown; anything the device says that is not a packet
    /// is dropped and counted, never trusted.
    public func receive() throws(ChipError) -> SHTPReceived {
        cargoLength = 0
        try read(into: 0..<SHTPHeader.size, "reading an SHTP header from the BNO08x")
        let header = SHTPHeader(UnsafeRawBufferPointer(rebasing: buffer[0..<SHTPHeader.size]))
        if let problem = header.problem(capacity: capacity) {
            if case .longerThanBuffer(let length) = problem { try drain(length) }
            return fail(problem)
        }
        if header.length == 0 { return .nothing }
        let first = min(header.length, transferLimit)
        try read(into: 0..<first, "reading an SHTP packet of \(header.length) bytes from the BNO08x")
        let again = SHTPHeader(UnsafeRawBufferPointer(rebasing: buffer[0..<SHTPHeader.size]))
        guard again == header else { return fail(.headerChangedBetweenReads) }
        sequences.observe(channel: header.channel, sequence: header.sequence)
        var end = first  // bytes of the packet in the buffer, header included
        while end < header.length {
            // A continuation's own header lands on the last 4 bytes received: kept aside.
            let start = end - SHTPHeader.size
            let kept = (buffer[start], buffer[start + 1], buffer[start + 2], buffer[start + 3])
            let want = min(header.length - end + SHTPHeader.size, transferLimit)
            try read(into: start..<(start + want), "reading the continuation of an SHTP packet from the BNO08x")
            let continued = SHTPHeader(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
            (buffer[start], buffer[start + 1], buffer[start + 2], buffer[start + 3]) = kept
            guard continued.continuation, continued.channel == header.channel, continued.length > SHTPHeader.size else {
                return fail(.brokenContinuation)
            }
            sequences.resynchronize(channel: continued.channel, sequence: continued.sequence)
            end = start + want
        }
        cargoLength = header.cargoLength
        return .packet(header)
    }

    /// Reads and discards a packet too long to keep, so the device moves on to the next one.
    /// At most `length / (transferLimit − 4) + 1` reads.
    private func drain(_ length: Int) throws(ChipError) {
        var left = length
        var first = true
        while left > 0 {
            let want = min(first ? left : left + SHTPHeader.size, transferLimit)
            try read(into: 0..<want, "draining an SHTP packet of \(length) bytes (too long to keep) from the BNO08x")
            left -= first ? want : want - SHTPHeader.size
            first = false
        }
    }

    /// Sends `cargo` on `channel` in one write, numbered with the host's sequence for the channel.
    public func send(channel: UInt8, cargo: [UInt8], _ what: @autoclosure () -> String) throws(ChipError) {
        let index = Int(min(channel, UInt8(SHTPChannel.count - 1)))
        var packet = [UInt8](repeating: 0, count: SHTPHeader.size + cargo.count)
        packet.withUnsafeMutableBytes {
            SHTPHeader(length: SHTPHeader.size + cargo.count, channel: channel, sequence: hostSequences[index]).store(into: $0)
        }
        packet.replaceSubrange(SHTPHeader.size..., with: cargo)
        hostSequences[index] &+= 1
        let result = packet.withUnsafeBytes { bytes in Result { () throws(BusError) in try bus.write(address: address, values: bytes) } }
        if case .failure(let error) = result { throw .bus(error.during(what())) }
    }
}
