import Chips
import SensorBus
import Testing

/// The MPU-6050's sample rate changed in place (SMPLRT_DIV and a FIFO reset, no DEVICE_RESET)
/// on its register-level emulator.
@Suite struct MPU6050RateSwitchTests {
    typealias Bus = WriteLoggingBus<MPU6050Emulator>

    func start() throws -> (RateSwitchRun<MPU6050Driver<Bus>, MPU6050Emulator>, Bus) {
        let motion = NumberedMotion()
        let emulator = MPU6050Emulator(motion: { motion.sample($0) })
        let bus = Bus(emulator)
        return (RateSwitchRun(driver: try MPU6050Driver(bus: bus), chip: emulator, motion: motion), bus)  // 100 Hz
    }

    @Test func toOneKilohertzAndBackWithoutAResetOrALostSample() throws {
        var (run, bus) = try start()
        let config = try bus.chip.readRegister(address: 0x68, register: MPU6050Register.config)
        // SMPLRT_DIV (0x19) = 0: 1 kHz; INT_ENABLE (0x38) = FIFO_OFLOW_EN only; USER_CTRL (0x6A) =
        // FIFO_EN | FIFO_RESET. Back: SMPLRT_DIV = 9 (100 Hz), DATA_RDY_EN again. Never
        // PWR_MGMT_1 (0x6B), whose DEVICE_RESET would put the chip to sleep for 100 ms.
        try checkSwitchUpAndBack(&run, bus: bus, boardHertz: 100, fastHertz: 1000,
                                 upWrites: [(0x19, 0x00), (0x38, 0x10), (0x6A, 0x44)],
                                 downWrites: [(0x19, 0x09), (0x38, 0x11), (0x6A, 0x44)])
        // The low-pass filter, the FIFO's contents selection and the full scales stayed.
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.config) == config)
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.fifoEnable) == MPU6050Register.fifoAccelerometerAndGyroscope)
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.accelerometerConfig) == run.driver.accelerometerScale.field << 3)
    }

    @Test func anOverflowBeforeTheSwitchIsCountedAndTheNewRateStartsClean() throws {
        var (run, _) = try start()
        try checkOverflowBeforeTheSwitch(&run, fastHertz: 1000)
    }

    @Test func aResetChipComesBackAtTheSwitchedRate() throws {
        var (run, bus) = try start()
        _ = try run.driver.setSampleRate(hertz: 1000, dataReadyInterrupt: false)
        bus.chip.powerOnReset()  // a brown-out: asleep, every register at its reset value
        try run.drain(at: 10_000_000)
        #expect(run.driver.recoveries == 1)
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.sampleRateDivider) == 0)
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.interruptEnable) == MPU6050Register.interruptFIFOOverflow)
    }

    /// A bus error mid-switch leaves the driver's period what the chip runs at: the old one if
    /// SMPLRT_DIV was not written, the new one if it was (the FIFO reset then failed); a retry
    /// completes the switch.
    @Test func aBusErrorMidSwitchLeavesTheDriverAgreeingWithTheChip() throws {
        var (run, bus) = try start()
        try run.drain(at: 50_000_000)
        bus.chip.inject(.inputOutputError(register: MPU6050Register.sampleRateDivider), count: 1)
        #expect(throws: ChipError.self) { try run.driver.setSampleRate(hertz: 1000, dataReadyInterrupt: false) }
        #expect(run.driver.samplePeriodNanoseconds == 10_000_000)
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.sampleRateDivider) == 9)
        bus.chip.inject(.inputOutputError(register: MPU6050Register.userControl), count: 1)
        #expect(throws: ChipError.self) { try run.driver.setSampleRate(hertz: 1000, dataReadyInterrupt: false) }
        #expect(run.driver.samplePeriodNanoseconds == 1_000_000)
        #expect(try bus.chip.readRegister(address: 0x68, register: MPU6050Register.sampleRateDivider) == 0)
        #expect(try run.driver.setSampleRate(hertz: 1000, dataReadyInterrupt: false) == 1_000_000)
        #expect(bus.chip.fifoCount == 0 && run.driver.recoveries == 0)
    }
}
