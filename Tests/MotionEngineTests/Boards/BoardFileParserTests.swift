import FixedPoint
import MotionAlgorithms
@testable import MotionEngine
import Testing
import TestSupport

@Suite struct BoardFileParserTests {
    @Test func everyShippedBoardFileParses() throws {
        for name in ["gy-521", "mpu-9250", "lsm6dsox-lis3mdl", "bmi160-bmp280", "sense-hat", "gy-521-qmc5883l", "gy-521-hmc5883l",
                     "gy-521-lis2mdl", "gy-521-mmc5983ma", "gy-521-bmp388", "icm-20948", "bno08x", "bno055",
                     "sim-gy-521", "sim-gy-521-bmp280", "sim-sense-hat", "sim-bmi160-bmp280", "sim-lsm6dsox-lis3mdl", "sim-mpu-9250",
                     "sim-gy-521-qmc5883l", "sim-gy-521-hmc5883l",
                     "sim-gy-521-lis2mdl", "sim-gy-521-mmc5983ma", "sim-gy-521-bmp388", "sim-icm-20948", "sim-bno08x", "sim-bno055",
                     "lsm6dsv16x-lis3mdl", "sim-lsm6dsv16x-lis3mdl", "lsm6ds3trc-lis3mdl", "sim-lsm6ds3trc-lis3mdl"] {
            let board = try BoardDescription.load(path: "\(ProjectPaths.root)/boards/\(name).board")
            #expect(!board.chips.isEmpty, "\(name)")
            // Every simulated board runs: its emulators come up and the drivers read them.
            if name.hasPrefix("sim-") {
                let runtime = try BoardRuntime(board, root: ProjectPaths.root, speed: 0)
                var readings = 0
                try runtime.run(untilNanoseconds: 500_000_000) { _ in readings += 1 }
                #expect(readings > 50, "\(name): \(readings) readings in 0.5 s")
            }
        }
        let gy521 = try BoardDescription.load(path: "\(ProjectPaths.root)/boards/gy-521.board")
        #expect(gy521.chips[0] == BoardDescription.Chip(label: "imu", driver: "mpu6050", bus: .i2c(number: 1), address: 0x68,
                                                        interruptLine: "GPIO17", mount: .identity, motionRecording: nil, rateHertz: 100))
    }

    static let cases: [(text: String, message: String)] = [
        ("board = b\n[chip a]\ndriver = lsm303\nbus = i2c-1\naddress = 0x68\n", "f.board:3: unknown driver \"lsm303\""),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = spi-0\naddress = 0x68\n", "f.board:4: bus \"spi-0\" is not \"i2c-N\", \"emulated\", \"iio\" or \"serial:/dev/TTY\""),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 104\n", "f.board:5: address \"104\" is not a 7-bit I2C address"),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\n", "f.board:2: chip \"a\" has no \"address\""),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 0x68\nmount = x x z\n", "f.board:6: mount \"x x z\" must name each of x, y, z once"),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 0x68\nmount = x q z\n", "f.board:6: mount \"x q z\": \"q\" is not an axis"),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 0x68\nspeed = 3\n", "f.board:6: unknown chip setting \"speed\""),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 0x68\nmotion = x.csv\n", "f.board:6: \"motion\" applies only to emulated chips"),
        ("board = b\n[chip a]\ndriver = lps25h\nbus = iio\ndevice = lps25h\naddress = 0x5c\n", "f.board:6: an IIO chip has no \"address\""),
        ("board = b\n[chip a]\ndriver = lps25h\nbus = i2c-1\naddress = 0x5c\ndevice = lps25h\n", "f.board:6: \"device\" applies only to chips on bus = iio"),
        ("board = b\n[chip a]\ndriver = lps25h\nbus = iio\n", "f.board:2: chip \"a\" has no \"device\""),
        ("board = b\n[chip a]\ndriver = bmi160\nbus = iio\ndevice = bmi160\ncapture = fifo\n", "f.board:6: capture \"fifo\" is not \"sysfs\" or \"buffer\""),
        ("board = b\n[chip a]\ndriver = bmi160\nbus = iio\ndevice = bmi160\ntrigger = t0\n", "f.board:6: \"trigger\" applies only with capture = buffer"),
        ("board = b\n[chip a]\ndriver = bmi160\nbus = i2c-1\naddress = 0x68\ncapture = buffer\n", "f.board:6: \"capture\" applies only to chips on bus = iio"),
        ("board = b\n[chip a]\ndriver = ak8963\nbus = emulated\naddress = 0x0C\nhard-iron = 40 -25\n", "f.board:6: hard-iron \"40 -25\" is not three numbers of µT"),
        ("board = b\n[chip a]\ndriver = ak8963\nbus = i2c-1\naddress = 0x0C\nhard-iron = 40 -25 10\n", "f.board:6: \"hard-iron\" applies only to emulated chips"),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 0x68\nchip-fusion = on\n", "f.board:6: driver \"mpu6050\" has no fusion of its own to pass on"),
        ("board = b\n[chip a]\ndriver = bno08x\nbus = i2c-1\naddress = 0x4A\nchip-fusion = yes\n", "f.board:6: chip-fusion \"yes\" is not \"on\" or \"off\""),
        ("board = b\n[chip a]\ndriver = bno055\nbus = i2c-1\naddress = 0x28\nmount = x y -z\nchip-fusion = on\n", "f.board:7: chip-fusion needs a mount that is a rotation"),
        ("board = b\n[chip a]\ndriver = bno055\nbus = iio\ndevice = bno055\nchip-fusion = on\n", "f.board:6: chip-fusion needs the chip on an I2C bus"),
        ("board = b\n[sensor a]\n", "f.board:2: expected a section header like \"[chip imu]\""),
        ("board = b\n", "f.board: no [chip …] section"),
        ("driver = x\n", "f.board:1: \"driver\" outside a [chip …] section"),
        ("board = b\n[chip a]\ndriver = mpu6050\ndriver = bmp280\n", "f.board:4: \"driver\" is set twice"),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\naddress = 0x68\n[chip a]\n", "f.board:6: a second chip named \"a\""),
        ("board = b\n[chip a]\ndriver = bno055\nbus = i2c-1\naddress = 0x28\nmode = ndfo\n", "f.board:6: mode \"ndfo\" is not \"ndof\" or \"amg\""),
        ("board = b\n[chip a]\ndriver = mpu6050\nbus = i2c-1\nmode = amg\naddress = 0x68\n", "f.board:5: \"mode\" applies only to bno055 chips"),
        ("board = b\n[chip a]\ndriver = bno055\nbus = i2c-1\naddress = 0x28\nmode = amg\nchip-fusion = on\n", "f.board:7: chip-fusion = on with mode = amg"),
    ]

    @Test(arguments: 0..<cases.count)
    func malformedBoardFilesNameTheLine(_ index: Int) {
        let (text, message) = Self.cases[index]
        #expect { _ = try BoardFileParser.parse(text, path: "f.board") } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test func mountsAndCommentsParse() throws {
        let board = try BoardFileParser.parse("""
            # a comment
            board = tilted   # trailing comment
            [chip a]
            driver = bmp280
            bus = emulated
            address = 0x77
            mount = -y x -z
            """, path: "f.board")
        #expect(board.name == "tilted")
        #expect(board.chips[0].mount == BoardDescription.AxisMapping(axes: [(1, -1), (0, 1), (2, -1)]))
        #expect(board.chips[0].bus == .emulated)
    }

    @Test func anIIOChipMayAskForItsBuffer() throws {
        let board = try BoardFileParser.parse("board = b\n[chip a]\ndriver = bmi160\nbus = iio\ndevice = bmi160\ncapture = buffer\ntrigger = t0\n[chip b]\ndriver = lps25h\nbus = iio\ndevice = lps25h\n", path: "f.board")
        #expect(board.chips[0].iioCapture == .buffer(trigger: "t0"))
        #expect(board.chips[1].iioCapture == .sysfs)
    }

    @Test func aMissingBoardFileSaysWhereBoardsAre() {
        #expect { _ = try BoardDescription.load(path: "/nonexistent.board") } throws: { error in
            "\(error)".contains("/nonexistent.board: could not open the board file: No such file or directory. Check the path; installed board files are in")
                && "\(error)".contains("/share/opencoremotion/boards") && "\(error)".contains("motionctl probe")
        }
    }
}
