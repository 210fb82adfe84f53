/// A board file, parsed: which chips sit where, and how they are mounted. Board facts live in
/// `boards/*.board` as data (see boards/README.md for the format); no driver holds any.
public struct BoardDescription: Sendable, Equatable {
    public var name: String
    public var chips: [Chip]

    public struct Chip: Sendable, Equatable {
        /// The section name: `[chip imu]` → "imu".
        public var label: String
        /// The driver family: `mpu6050`, `bmp280`.
        public var driver: String
        public var bus: Bus
        /// 7-bit I2C address (0 for IIO chips, which the kernel addresses, and for chips on a UART).
        public var address: UInt8
        /// The data-ready line (a GPIO line name such as "GPIO17"), if wired.
        public var interruptLine: String?
        /// Chip axes → device axes: device axis i = sign[i] × chip axis index[i].
        public var mount: AxisMapping
        /// For emulated buses: the recording whose motion the emulated chip feels.
        public var motionRecording: String?
        /// Requested rate, Hz (the driver picks the nearest it supports).
        public var rateHertz: Int?
        /// For emulated chips: whether the emulator adds its datasheet's measurement noise
        /// (`noise = datasheet`, the default, or `off` for exact values in tests).
        public var emulatedNoise = true
        /// For emulated magnetometers: a hard-iron offset the emulator adds, µT in chip axes
        /// (x, y, z), as a phone's or a board's magnetised parts would.
        public var emulatedHardIron: [Double]?
        /// For IIO chips: how samples are taken (`capture = sysfs | buffer`, `trigger = NAME`).
        public var iioCapture: IIOCapture = .sysfs
        /// A chip's own calibration profile (a BNO055's registers 0x55…0x6A), written back when
        /// the chip starts. From the board's calibration file (`withStoredProfiles`), never from
        /// the board file: it belongs to the one chip, not to every board of the kind.
        public var storedProfile: [Int16]?
        /// For chips that run their own fusion (bno08x, bno08x-rvc, bno055): whether the runtime passes on
        /// what they compute (`chip-fusion = on`; `BoardRuntime.onChipFusion`).
        public var chipFusion = false
        /// The chip's operating mode, where its family has several (`mode = ndof | amg`, BNO055
        /// only); nil: the family's default (NDOF).
        public var mode: OperatingMode?
    }

    /// A chip's operating mode (`mode = …` in a board file).
    public enum OperatingMode: String, Sendable, Equatable {
        /// BNO055 NDOF: the chip's own nine-axis fusion running, its sensors calibrated in the
        /// background (and its profile learned and kept, see boards/README.md).
        case ndof
        /// BNO055 AMG: accelerometer, magnetometer and gyroscope alone, no fusion and no
        /// background calibration (BST-BNO055-DS000-14 §3.3, table 3-5).
        case amg
    }

    /// How an IIO chip's samples are taken.
    public enum IIOCapture: Sendable, Equatable {
        /// Its sysfs attributes, once per sample period on the runtime's clock.
        case sysfs
        /// Its IIO buffer: every scan the kernel driver pushes, with the kernel's timestamp,
        /// driven by the named trigger (an hrtimer trigger "t0") or the device's own (nil).
        case buffer(trigger: String?)
    }

    public enum Bus: Sendable, Equatable {
        /// `/dev/i2c-N` through user-space I2C.
        case i2c(number: Int)
        /// The chip's register-level emulator (a simulated board).
        case emulated
        /// The chip's kernel IIO driver, through libiio: `device` is the IIO device name
        /// (`lsm9ds1_accel`, `lps25h`), `uri` the context (`local:` or `ip:HOST`).
        case iio(device: String, uri: String)
        /// A UART the chip streams to unprompted (`bus = serial:/dev/ttyAMA0`), read raw at
        /// 115200 baud through termios: a BNO08x in UART-RVC mode.
        case serial(device: String)
    }

    /// A signed axis permutation, e.g. `x -y -z` for a chip mounted upside down.
    public struct AxisMapping: Sendable, Equatable {
        /// For device x, y, z: which chip axis (0, 1, 2) and its sign (+1, −1).
        public var axes: [(index: Int, sign: Int)]

        public static let identity = AxisMapping(axes: [(0, 1), (1, 1), (2, 1)])

        public static func == (lhs: AxisMapping, rhs: AxisMapping) -> Bool {
            lhs.axes.count == rhs.axes.count && zip(lhs.axes, rhs.axes).allSatisfy { $0.index == $1.index && $0.sign == $1.sign }
        }
    }
}
