public import SensorBus

// What the engine needs of a register-level emulator besides its bus: its clock and its
// interrupt pin. An emulator's pin follows its registers, as the silicon's does: it signals
// data ready only when the driver routed data ready to it (MPU-6050 INT_ENABLE, BMI160
// INT_EN_1 + INT_MAP_1 + INT_OUT_CTRL, LSM6DSx INT1_CTRL), and falls silent when the chip is
// reset, asleep or powered down. An engine that waits on the pin therefore meets the same
// silence a real board gives after a chip reset.

/// A chip emulator whose clock the engine runs.
public protocol EmulatedChip: AnyObject {
    /// Runs the chip's clock to `timeNanoseconds`, producing every sample due by then.
    func advance(to timeNanoseconds: Int64)
    /// When the chip's data-ready interrupt pin next rises: the time of its next sample, if the
    /// driver routed data ready to the pin and the chip is sampling; nil otherwise (no edge
    /// will come: a chip without the pin, not configured, reset or asleep).
    var nextDataReadyNanoseconds: Int64? { get }
    /// Fault injection: the output registers freeze at their last values (a hung sensing
    /// element) while data-ready signalling and FIFO writes go on, repeating them.
    var stuckOutput: Bool { get set }
}

extension EmulatedChip {
    public var nextDataReadyNanoseconds: Int64? { nil }
}

/// A barometer emulator: the engine sets the pressure it feels, in Pa, and the temperature
/// of its surroundings, °C (a depth sensor's water temperature).
public protocol EmulatedBarometer: EmulatedChip, I2CBus {
    var pressurePascals: Double { get set }
    var temperatureCelsius: Double { get set }
}

extension LSM9DS1Emulator: EmulatedChip {}
extension AK8963Emulator: EmulatedChip {}
extension QMC5883LEmulator: EmulatedChip {}
extension HMC5883LEmulator: EmulatedChip {}
extension LIS2MDLEmulator: EmulatedChip {}
extension MMC5983MAEmulator: EmulatedChip {}
extension BMP280Emulator: EmulatedBarometer {}
extension BMP388Emulator: EmulatedBarometer {}
extension LPS25HEmulator: EmulatedBarometer {}
