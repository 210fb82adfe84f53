import CLibI2C
import Glibc
import LinuxI2C
import Locking

/// A stand-in for the kernel's i2c-dev: one device with a 256-byte register file at `address`,
/// an address owned by a kernel driver (EBUSY), optional lack of plain-I2C support, and errno
/// values forced on chosen calls. It answers the exact ioctl structures the transport passes
/// (i2c_rdwr_ioctl_data → i2c_msg[]), so the message layout is checked, not assumed.
final class FakeI2CKernel: Sendable {
    struct State {
        var registers = [UInt8](repeating: 0, count: 256)
        var pointer = 0
        var calls: [String] = []
        /// errno to force on the next calls, consumed one per call (0 = let it through).
        var forcedErrnos: [Int32] = []
        var selected: UInt = 0
        var openDescriptors = 0
    }

    let address: UInt8
    let busyAddress: UInt8 = 0x77
    let plainI2C: Bool
    let state = Lock(State())

    init(address: UInt8 = 0x6A, plainI2C: Bool = true) {
        self.address = address
        self.plainI2C = plainI2C
    }

    func force(_ errnos: [Int32]) { state.withLock { $0.forcedErrnos = errnos } }
    var calls: [String] { state.withLock { $0.calls } }
    func setRegisters(_ start: Int, _ values: [UInt8]) {
        state.withLock { for (offset, value) in values.enumerated() { $0.registers[start + offset] = value } }
    }
    func register(_ index: Int) -> UInt8 { state.withLock { $0.registers[index] } }
    var openDescriptors: Int { state.withLock { $0.openDescriptors } }

    /// Records the call; returns an errno to fail with, if one is forced.
    private func enter(_ name: String) -> Int32 {
        state.withLock { state in
            state.calls.append(name)
            return state.forcedErrnos.isEmpty ? 0 : state.forcedErrnos.removeFirst()
        }
    }

    private func fail(_ code: Int32) -> Int32 {
        errno = code
        return -1
    }

    var systemCalls: SystemCalls {
        SystemCalls(
            open: { path, _ in
                if let code = Optional(self.enter("open \(path)")), code != 0 { return self.fail(code) }
                guard path == "/dev/i2c-1" else { return self.fail(ENOENT) }
                self.state.withLock { $0.openDescriptors += 1 }
                return 7
            },
            close: { _ in
                self.state.withLock { $0.openDescriptors -= 1 }
                return 0
            },
            ioctlPointer: { _, request, argument in
                let code = self.enter("ioctl \(request == UInt(I2C_RDWR) ? "I2C_RDWR" : "I2C_FUNCS")")
                if code != 0 { return self.fail(code) }
                if request == UInt(I2C_FUNCS) {
                    argument.storeBytes(of: UInt(self.plainI2C ? I2C_FUNC_I2C : 0) | UInt(I2C_FUNC_SMBUS_READ_I2C_BLOCK), as: UInt.self)
                    return 0
                }
                guard request == UInt(I2C_RDWR), self.plainI2C else { return self.fail(EOPNOTSUPP) }
                let data = argument.load(as: i2c_rdwr_ioctl_data.self)
                for index in 0..<Int(data.nmsgs) {
                    let message = data.msgs[index]
                    guard message.addr == UInt16(self.address) else { return self.fail(ENXIO) }
                    self.state.withLock { state in
                        if message.flags & UInt16(I2C_M_RD) != 0 {
                            for byte in 0..<Int(message.len) { message.buf[byte] = state.registers[(state.pointer + byte) & 0xFF] }
                            state.pointer += Int(message.len)
                        } else {
                            state.pointer = Int(message.buf[0])
                            for byte in 1..<max(1, Int(message.len)) { state.registers[(state.pointer + byte - 1) & 0xFF] = message.buf[byte] }
                        }
                    }
                }
                return Int32(data.nmsgs)
            },
            ioctlValue: { _, request, argument in
                let code = self.enter("ioctl I2C_SLAVE \(argument)")
                if code != 0 { return self.fail(code) }
                guard request == UInt(I2C_SLAVE) else { return self.fail(EINVAL) }
                if argument == UInt(self.busyAddress) { return self.fail(EBUSY) }
                self.state.withLock { $0.selected = argument }
                return 0
            },
            // libi2c's convention: −errno, not −1 with errno.
            smbusReadBlock: { _, register, length, values in
                let code = self.enter("smbus read \(register) \(length)")
                if code != 0 { return -code }
                return self.state.withLock { state in
                    guard state.selected == UInt(self.address) else { return -ENXIO }
                    for byte in 0..<Int(length) { values[byte] = state.registers[(Int(register) + byte) & 0xFF] }
                    return Int32(length)
                }
            },
            smbusWriteBlock: { _, register, length, values in
                let code = self.enter("smbus write \(register) \(length)")
                if code != 0 { return -code }
                self.state.withLock { state in
                    for byte in 0..<Int(length) { state.registers[(Int(register) + byte) & 0xFF] = values[byte] }
                }
                return 0
            })
    }
}
