import Chips
import SensorBus
import Testing

/// A device that answers each plain read with the next scripted transfer (zeros past its end,
/// an empty header when the script runs out) and records what the host writes.
final class ScriptedSHTPDevice: I2CBus {
    let name = "scripted bus"
    var replies: [[UInt8]]
    var reads = 0
    var written: [[UInt8]] = []

    init(_ replies: [[UInt8]]) { self.replies = replies }

    func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        Issue.record("SHTP is never read through a register")
    }

    func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
        written.append([register] + Array(values))
    }

    func read(address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
        reads += 1
        let reply = replies.isEmpty ? [] : replies.removeFirst()
        for index in buffer.indices { buffer[index] = index < reply.count ? reply[index] : 0 }
    }
}

@Suite struct SHTPTests {
    static func header(_ length: Int, continuation: Bool = false, channel: UInt8, sequence: UInt8) -> [UInt8] {
        let field = UInt16(length) | (continuation ? 0x8000 : 0)
        return [UInt8(field & 0xFF), UInt8(field >> 8), channel, sequence]
    }

    /// 1000-3535, "SHTP header": length little endian with bit 15 the continuation flag, then channel and sequence.
    @Test func theHeaderIsLengthWithContinuationChannelAndSequence() {
        let bytes: [UInt8] = [0x14, 0x81, 0x03, 0x2A]
        let header = bytes.withUnsafeBytes { SHTPHeader($0) }
        #expect(header == SHTPHeader(length: 0x114, continuation: true, channel: 3, sequence: 0x2A))
        #expect(header.cargoLength == 0x110)
        var stored = [UInt8](repeating: 0, count: 4)
        stored.withUnsafeMutableBytes { header.store(into: $0) }
        #expect(stored == bytes)
    }

    @Test func lengthsAndChannelsThatCannotBeArePlainProblems() {
        func problem(_ bytes: [UInt8], capacity: Int = 512) -> SHTPFramingProblem? { bytes.withUnsafeBytes { SHTPHeader($0) }.problem(capacity: capacity) }
        #expect(problem([0xFF, 0xFF, 0xFF, 0xFF]) == .unknownChannel(0xFF))  // a floating bus
        #expect(problem([0x02, 0x00, 0x03, 0x00]) == .shorterThanHeader(2))
        #expect(problem([0x08, 0x80, 0x03, 0x00]) == .unexpectedContinuation)
        #expect(problem([0x01, 0x02, 0x03, 0x00]) == .longerThanBuffer(0x201))
        #expect(problem([0x00, 0x00, 0x00, 0x00]) == nil)  // nothing to send
        #expect(problem([0x05, 0x00, 0x02, 0x07]) == nil)
    }

    /// A gap is the number of packets lost; the count wraps at 256; a continuation resynchronises.
    @Test func sequenceGapsCountLostPacketsAcrossTheWrap() {
        var tracker = SHTPSequenceTracker()
        #expect(tracker.observe(channel: 3, sequence: 254) == 0)  // first: nothing to compare
        #expect(tracker.observe(channel: 3, sequence: 255) == 0)
        #expect(tracker.observe(channel: 3, sequence: 2) == 2)    // 0 and 1 lost
        #expect(tracker.observe(channel: 2, sequence: 9) == 0)    // channels are independent
        #expect(tracker.observe(channel: 3, sequence: 2) == 0)
        #expect(tracker.lost == 2 && tracker.repeated == 1)
        tracker.resynchronize(channel: 3, sequence: 7)
        #expect(tracker.observe(channel: 3, sequence: 8) == 0)
        tracker.deviceReset()
        #expect(tracker.observe(channel: 3, sequence: 0) == 0)    // numbers restart after a reset
        #expect(tracker.observe(channel: 9, sequence: 0) == 0)    // no such channel: ignored
        #expect(tracker.lost == 2)
    }

    /// Header read, then the packet read from its start (its header again).
    @Test func aPacketIsAHeaderReadThenTheWholePacket() throws {
        let packet = Self.header(6, channel: 2, sequence: 5) + [0xF8, 0x01]
        let device = ScriptedSHTPDevice([Array(packet[0..<4]), packet])
        let transport = SHTPTransport(bus: device, address: 0x4A)
        #expect(try transport.receive() == .packet(SHTPHeader(length: 6, channel: 2, sequence: 5)))
        #expect(transport.withCargo { Array($0) } == [0xF8, 0x01])
        #expect(device.reads == 2)
        #expect(try transport.receive() == .nothing)
    }

    /// A packet longer than one read comes in pieces, each behind a continuation header; the
    /// cargo is put back together whole.
    @Test func continuationsAreReassembled() throws {
        let cargo = (0..<20).map { UInt8($0 + 100) }
        let device = ScriptedSHTPDevice([
            Self.header(24, channel: 3, sequence: 1),
            Self.header(24, channel: 3, sequence: 1) + Array(cargo[0..<8]),
            Self.header(16, continuation: true, channel: 3, sequence: 2) + Array(cargo[8..<16]),
            Self.header(8, continuation: true, channel: 3, sequence: 3) + Array(cargo[16..<20]),
            Self.header(5, channel: 3, sequence: 4), Self.header(5, channel: 3, sequence: 4) + [0xAA],
        ])
        let transport = SHTPTransport(bus: device, address: 0x4A, transferLimit: 12)
        #expect(try transport.receive() == .packet(SHTPHeader(length: 24, channel: 3, sequence: 1)))
        #expect(transport.withCargo { Array($0) } == cargo)
        #expect(try transport.receive() == .packet(SHTPHeader(length: 5, channel: 3, sequence: 4)))
        #expect(transport.sequences.lost == 0, "a continuation's own number is not a gap")
    }

    @Test func aContinuationThatDoesNotComeDropsThePacket() throws {
        let device = ScriptedSHTPDevice([Self.header(24, channel: 3, sequence: 1), Self.header(24, channel: 3, sequence: 1) + [1, 2, 3, 4, 5, 6, 7, 8],
                                         [0, 0, 0, 0]])
        let transport = SHTPTransport(bus: device, address: 0x4A, transferLimit: 12)
        #expect(try transport.receive() == .dropped(.brokenContinuation))
        #expect(transport.framingErrors == 1 && transport.withCargo { $0.count } == 0)
    }

    @Test func aHeaderThatChangesBetweenReadsIsNotTrusted() throws {
        let device = ScriptedSHTPDevice([Self.header(9, channel: 3, sequence: 1), Self.header(7, channel: 3, sequence: 1) + [1, 2, 3]])
        let transport = SHTPTransport(bus: device, address: 0x4A)
        #expect(try transport.receive() == .dropped(.headerChangedBetweenReads))
    }

    /// A packet longer than the buffer is read to its end (so the device moves on) and dropped;
    /// junk is dropped without a second read.
    @Test func tooLongPacketsAreDrainedAndJunkIsDropped() throws {
        let device = ScriptedSHTPDevice([Self.header(40, channel: 3, sequence: 0), Self.header(16, channel: 3, sequence: 0),
                                         Self.header(28, continuation: true, channel: 3, sequence: 1),
                                         Self.header(16, continuation: true, channel: 3, sequence: 2),
                                         [0xFF, 0xFF, 0xFF, 0xFF]])
        let transport = SHTPTransport(bus: device, address: 0x4A, capacity: 16, transferLimit: 16)
        #expect(try transport.receive() == .dropped(.longerThanBuffer(40)))
        #expect(device.reads == 4)  // the header, then 12 + 12 + 12 of the 36 cargo bytes, each read behind a header
        #expect(try transport.receive() == .dropped(.unknownChannel(0xFF)))
        #expect(device.reads == 5 && transport.framingErrors == 2)
    }

    /// The host numbers its own packets per channel, from 0 and again from 0 after a device reset.
    @Test func theHostNumbersItsPacketsPerChannel() throws {
        let device = ScriptedSHTPDevice([])
        let transport = SHTPTransport(bus: device, address: 0x4A)
        try transport.send(channel: 2, cargo: [0xF9, 0x00], "a test")
        try transport.send(channel: 2, cargo: [0xF9, 0x00], "a test")
        try transport.send(channel: 1, cargo: [0x01], "a test")
        transport.deviceReset()
        try transport.send(channel: 2, cargo: [0xF9, 0x00], "a test")
        #expect(device.written == [[6, 0, 2, 0, 0xF9, 0], [6, 0, 2, 1, 0xF9, 0], [5, 0, 1, 0, 1], [6, 0, 2, 0, 0xF9, 0]])
    }

    /// A NACK on the header read names the operation and the address.
    @Test func aMissingChipIsABusErrorSayingWhat() {
        let bus = EmulatedI2CBus()
        let transport = SHTPTransport(bus: bus, address: 0x4B)
        #expect {
            _ = try transport.receive()
        } throws: { error in
            guard case .bus(let busError) = error as? ChipError else { return false }
            return busError.kind == .noAcknowledge && busError.address == 0x4B && busError.description.contains("SHTP header")
        }
    }
}
