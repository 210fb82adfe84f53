import LinuxI2C
import SensorBus
import Testing

/// Plain transfers (no register byte) for packet chips: the BNO08x's SHTP.
@Suite struct PlainTransferTests {
    /// Each is one I2C_RDWR with one message: a write of exactly the given bytes, a read that
    /// writes nothing first (the fake's pointer stays where the write left it).
    @Test func aPlainWriteAndReadAreOneMessageEach() throws {
        let kernel = FakeI2CKernel(address: 0x4A)
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        try [UInt8](arrayLiteral: 0x30, 0x11, 0x22).withUnsafeBytes { try bus.write(address: 0x4A, values: $0) }
        #expect(kernel.register(0x30) == 0x11 && kernel.register(0x31) == 0x22)
        #expect(kernel.calls.suffix(1) == ["ioctl I2C_RDWR"])
        kernel.setRegisters(0x30, [7, 8, 9])
        var packet = [UInt8](repeating: 0, count: 3)
        try packet.withUnsafeMutableBytes { try bus.read(address: 0x4A, into: $0) }
        #expect(packet == [7, 8, 9], "read from where the write left the pointer: no register byte was sent")
        #expect(kernel.calls.suffix(1) == ["ioctl I2C_RDWR"])
    }

    @Test func aMissingPacketChipIsANACK() throws {
        let kernel = FakeI2CKernel(address: 0x4A)
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        var header = [UInt8](repeating: 0, count: 4)
        #expect { try header.withUnsafeMutableBytes { try bus.read(address: 0x4B, into: $0) } } throws: { error in
            (error as? BusError)?.kind == .noAcknowledge && (error as? BusError)?.address == 0x4B
        }
    }

    /// An SMBus-only adapter cannot read without a register: said so; a write goes as a block
    /// write whose register is the first byte (the same bytes on the wire).
    @Test func anSMBusOnlyAdapterSaysItCannotReadPlainly() throws {
        let kernel = FakeI2CKernel(address: 0x4A, plainI2C: false)
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        var header = [UInt8](repeating: 0, count: 4)
        #expect { try header.withUnsafeMutableBytes { try bus.read(address: 0x4A, into: $0) } } throws: { error in
            (error as? BusError)?.kind == .notSupported && (error as? BusError)?.description.contains("SMBus transfers only") == true
        }
        try [UInt8](arrayLiteral: 0x30, 0x11, 0x22).withUnsafeBytes { try bus.write(address: 0x4A, values: $0) }
        #expect(kernel.calls.suffix(1) == ["smbus write 48 2"] && kernel.register(0x31) == 0x22)
    }
}
