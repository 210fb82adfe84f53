import Chips
import LinuxI2C
import SensorBus
import Testing

@Suite struct ChipProbeOverLinuxI2CTests {
    /// Through the real transport's ownership check: the fake kernel's driver-owned address 0x77
    /// (a BMP280 address) is reported as such, and the LSM9DS1 identity at 0x6A is recognised.
    @Test func reportsKernelOwnedAddressesAndIdentifiesChips() throws {
        let kernel = FakeI2CKernel(address: 0x6A)
        kernel.setRegisters(0x0F, [0x68])
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", system: kernel.systemCalls)
        let findings = try ChipProbe.probe(bus)
        #expect(findings == [
            .init(address: 0x6A, outcome: .identified(driver: "lsm9ds1", chip: "LSM9DS1 accelerometer/gyroscope")),
            .init(address: 0x77, outcome: .ownedByKernelDriver),
        ])
    }
}
