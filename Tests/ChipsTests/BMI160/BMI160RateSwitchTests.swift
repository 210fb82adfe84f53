import Chips
import SensorBus
import Testing

/// The BMI160's output data rate changed in place (ACC_CONF/GYR_CONF and a FIFO flush, no
/// soft reset) on its register-level emulator.
@Suite struct BMI160RateSwitchTests {
    typealias Bus = WriteLoggingBus<BMI160Emulator>

    func start() throws -> (RateSwitchRun<BMI160Driver<Bus>, BMI160Emulator>, Bus) {
        let motion = NumberedMotion()
        let emulator = BMI160Emulator(motion: { motion.sample($0) })
        let bus = Bus(emulator)
        return (RateSwitchRun(driver: try BMI160Driver(bus: bus), chip: emulator, motion: motion), bus)  // 100 Hz
    }

    @Test func toSixteenHundredHertzAndBackWithoutAResetOrALostSample() throws {
        var (run, bus) = try start()
        let ranges = (try bus.chip.readRegister(address: 0x68, register: BMI160Register.accelerometerRange),
                      try bus.chip.readRegister(address: 0x68, register: BMI160Register.gyroscopeRange))
        // ACC_CONF (0x40) and GYR_CONF (0x42) = bwp normal | odr 0x0C (1600 Hz); INT_EN_1 (0x51)
        // data ready off; CMD (0x7E) = fifo_flush (0xB0). Back: odr 0x08 (100 Hz), data ready
        // on. Never CMD = softreset (0xB6), which suspends both sensors.
        try checkSwitchUpAndBack(&run, bus: bus, boardHertz: 100, fastHertz: 1600,
                                 upWrites: [(0x40, 0x2C), (0x42, 0x2C), (0x51, 0x00), (0x7E, 0xB0)],
                                 downWrites: [(0x40, 0x28), (0x42, 0x28), (0x51, 0x10), (0x7E, 0xB0)])
        #expect(try bus.chip.readRegister(address: 0x68, register: BMI160Register.accelerometerRange) == ranges.0)
        #expect(try bus.chip.readRegister(address: 0x68, register: BMI160Register.gyroscopeRange) == ranges.1)
        #expect(try bus.chip.readRegister(address: 0x68, register: BMI160Register.fifoConfig1) == BMI160Register.fifoGyroscopeAndAccelerometer)
    }

    @Test func anOverflowBeforeTheSwitchIsCountedAndTheNewRateStartsClean() throws {
        var (run, _) = try start()
        try checkOverflowBeforeTheSwitch(&run, fastHertz: 1600)
    }

    @Test func aResetChipComesBackAtTheSwitchedRate() throws {
        var (run, bus) = try start()
        _ = try run.driver.setSampleRate(hertz: 1600, dataReadyInterrupt: false)
        bus.chip.powerOnReset()  // both sensors suspended, every register at its reset value
        try run.drain(at: 10_000_000)
        #expect(run.driver.recoveries == 1)
        #expect(try bus.chip.readRegister(address: 0x68, register: BMI160Register.accelerometerConfig) == 0x2C)
        #expect(try bus.chip.readRegister(address: 0x68, register: BMI160Register.interruptEnable1) == 0)
    }

    /// A bus error on ACC_CONF leaves the rate and the driver's period as they were; a retry
    /// switches.
    @Test func aBusErrorBeforeTheRateIsWrittenChangesNothing() throws {
        var (run, bus) = try start()
        try run.drain(at: 50_000_000)
        bus.chip.inject(.inputOutputError(register: BMI160Register.accelerometerConfig), count: 1)
        #expect(throws: ChipError.self) { try run.driver.setSampleRate(hertz: 1600, dataReadyInterrupt: false) }
        #expect(run.driver.samplePeriodNanoseconds == 10_000_000)
        #expect(try bus.chip.readRegister(address: 0x68, register: BMI160Register.accelerometerConfig) == 0x28)
        #expect(try run.driver.setSampleRate(hertz: 1600, dataReadyInterrupt: false) == 625_000)
    }
}
