import Chips
import LinuxSerial
import MotionAlgorithms
import SensorBus

/// The chips that stream over a UART instead of answering on I2C (`bus = serial:DEVICE`, or
/// emulated): how to open the driver on the line, and the emulator a simulated board uses.
/// They have no address and no data-ready line; the runtime polls them at half their period.
struct SerialChipFamily: Sendable {
    typealias Open = @Sendable (BoardSerialLine, BoardDescription.Chip) -> any ChipReader
    typealias Emulate = @Sendable (EmulatedSenses) -> BNO08XRVCEmulator

    let open: Open
    let emulate: Emulate
    let noise: SensorNoise

    static let all: [String: SerialChipFamily] = [
        // BNO085/BNO086 with PS0 high and PS1 low: 100 Hz frames of the hub's yaw, pitch, roll
        // and acceleration (BNO080 data sheet 1000-3927 §1.3.5), no gyroscope or field. Noise:
        // the I2C family's accelerometer assumption (`bno08x` in ChipFamily.all).
        "bno08x-rvc": SerialChipFamily(open: { line, chip in BNO08XRVCReader(BNO08XRVCDriver(stream: line), label: chip.label) },
                                       emulate: { senses in BNO08XRVCEmulator(motion: { ( senses.inertial($0).acceleration, senses.attitude($0)) }) },
                                       noise: SensorNoise(accelerometerDensity: 180e-6, gyroscopeDensity: 0, bandwidth: 50)),
    ]
}

/// A UART chip's line on a running board: the real port, or the chip's emulator. One concrete
/// type, as `BoardBus` is for I2C, so each driver has one instantiation.
final class BoardSerialLine: ByteStream {
    enum Backend {
        case port(SerialPort)
        case emulated(BNO08XRVCEmulator)
    }

    let backend: Backend

    init(_ backend: Backend) { self.backend = backend }

    var name: String {
        switch backend {
        case .port(let port): port.name
        case .emulated(let emulator): emulator.name
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        switch backend {
        case .port(let port): try port.read(into: buffer)
        case .emulated(let emulator): try emulator.read(into: buffer)
        }
    }
}
