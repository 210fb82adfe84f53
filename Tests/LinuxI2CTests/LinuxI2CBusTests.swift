import Glibc
import LinuxI2C
import SensorBus
import Testing

@Suite struct LinuxI2CBusTests {
    @Test func burstReadIsOneCombinedTransaction() throws {
        let kernel = FakeI2CKernel()
        kernel.setRegisters(0x28, [1, 2, 3, 4, 5, 6])
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        #expect(bus.supportsCombinedTransfers)
        var sample = [UInt8](repeating: 0, count: 6)
        try sample.withUnsafeMutableBytes { try bus.readRegisters(address: 0x6A, register: 0x28, into: $0) }
        #expect(sample == [1, 2, 3, 4, 5, 6])
        // open, I2C_FUNCS, the one-time ownership check, then exactly one I2C_RDWR.
        #expect(kernel.calls == ["open /dev/i2c-1", "ioctl I2C_FUNCS", "ioctl I2C_SLAVE 106", "ioctl I2C_RDWR"])
        try sample.withUnsafeMutableBytes { try bus.readRegisters(address: 0x6A, register: 0x28, into: $0) }
        #expect(kernel.calls.suffix(1) == ["ioctl I2C_RDWR"])  // ownership is checked once
    }

    @Test func writesRegisterAndValuesInOneMessage() throws {
        let kernel = FakeI2CKernel()
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        try bus.writeRegister(address: 0x6A, register: 0x10, value: 0x4C)
        try [UInt8](arrayLiteral: 0xA0, 0xA1).withUnsafeBytes { try bus.writeRegisters(address: 0x6A, register: 0x20, values: $0) }
        #expect(kernel.register(0x10) == 0x4C)
        #expect(kernel.register(0x20) == 0xA0 && kernel.register(0x21) == 0xA1)
        #expect(try bus.readRegister(address: 0x6A, register: 0x21) == 0xA1)
    }

    @Test func interruptedCallsAreRetriedAndOtherErrorsClassified() throws {
        let kernel = FakeI2CKernel()
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        _ = try bus.readRegister(address: 0x6A, register: 0)
        kernel.force([EINTR, EINTR])  // two signals during the transfer: retried, succeeds
        kernel.setRegisters(0x0F, [0x6C])
        #expect(try bus.readRegister(address: 0x6A, register: 0x0F) == 0x6C)
        for (code, kind) in [(EIO, BusError.Kind.inputOutput(errno: EIO)), (EREMOTEIO, .noAcknowledge), (ETIMEDOUT, .timeout)] {
            kernel.force([code])
            #expect { try bus.readRegister(address: 0x6A, register: 0x0F) } throws: { error in
                (error as? BusError)?.kind == kind && (error as? BusError)?.register == 0x0F
            }
        }
    }

    @Test func aMissingDeviceGivesANACKWithAdvice() throws {
        let kernel = FakeI2CKernel()
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        let error = #expect(throws: BusError.self) { try bus.readRegister(address: 0x68, register: 0x75) }
        #expect(error?.kind == .noAcknowledge)
        #expect(error?.description.contains("on /dev/i2c-1 at address 0x68, register 0x75: no device answered (NACK)") == true)
        #expect(error?.description.contains("i2cdetect -y 1") == true)
    }

    @Test func anAddressOwnedByAKernelDriverIsReportedWithTheIIOAlternative() throws {
        let kernel = FakeI2CKernel()
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        let error = #expect(throws: BusError.self) { try bus.readRegister(address: 0x77, register: 0xD0) }
        #expect(error?.kind == .busy)
        #expect(error?.description.contains("a kernel driver owns this address (EBUSY)") == true)
        #expect(error?.description.contains("IIO") == true)
    }

    @Test func openFailuresPointToTheFix() {
        let kernel = FakeI2CKernel()
        let missing = #expect(throws: BusError.self) { _ = try LinuxI2CBus(path: "/dev/i2c-9", system: kernel.systemCalls) }
        #expect(missing?.kind == .noSuchBus)
        #expect(missing?.description.contains("i2cdetect -l") == true)
        kernel.force([EACCES])
        let denied = #expect(throws: BusError.self) { _ = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls) }
        #expect(denied?.kind == .permissionDenied)
        #expect(denied?.description.contains("udev/README.md") == true)
        // An I2C_FUNCS failure closes the descriptor it opened.
        kernel.force([0, EIO])
        #expect(throws: BusError.self) { _ = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls) }
        #expect(kernel.openDescriptors == 0)
    }

    @Test func smbusOnlyAdaptersUseBlockReadsInChunksOf32() throws {
        let kernel = FakeI2CKernel(plainI2C: false)
        kernel.setRegisters(0x80, Array(0..<40))
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        #expect(!bus.supportsCombinedTransfers)
        var burst = [UInt8](repeating: 0, count: 40)
        try burst.withUnsafeMutableBytes { try bus.readRegisters(address: 0x6A, register: 0x80, into: $0) }
        #expect(burst == Array(0..<40))
        #expect(kernel.calls.suffix(2) == ["smbus read 128 32", "smbus read 160 8"])
        try bus.writeRegister(address: 0x6A, register: 0x11, value: 0x5A)
        #expect(kernel.register(0x11) == 0x5A)
    }

    @Test func smbusFailuresAreErrorsWithTheirErrno() throws {
        // libi2c returns −errno (not −1 and errno): a failed write must not pass for success,
        // a chip that does not answer must read as "no acknowledge", not as a short transfer.
        let kernel = FakeI2CKernel(plainI2C: false)
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        kernel.force([EIO])
        let write = #expect(throws: BusError.self) { try bus.writeRegister(address: 0x6A, register: 0x11, value: 0x5A) }
        #expect(write?.kind == .inputOutput(errno: EIO))
        let absent = #expect(throws: BusError.self) { _ = try bus.readRegister(address: 0x6B, register: 0x0F) }
        #expect(absent?.kind == .noAcknowledge)
        kernel.force([EINTR])
        _ = try bus.readRegister(address: 0x6A, register: 0x0F)  // EINTR is retried
    }

    @Test func closingTheBusClosesItsDescriptor() throws {
        let kernel = FakeI2CKernel()
        do {
            let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
            _ = try bus.readRegister(address: 0x6A, register: 0)
            #expect(kernel.openDescriptors == 1)
        }
        #expect(kernel.openDescriptors == 0)
    }

    @Test func theRealDeviceNodeIsTriedAndAMissingOneExplained() {
        // On a machine without /dev/i2c-250 the live system calls give the "no such bus" advice.
        let error = #expect(throws: BusError.self) { _ = try LinuxI2CBus(bus: 250) }
        #expect(error?.kind == .noSuchBus)
        #expect(error?.description.hasPrefix("Could not complete opening the bus on /dev/i2c-250") == true)
    }
}
