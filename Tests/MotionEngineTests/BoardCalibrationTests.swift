import Glibc
import MotionEngine
import Testing

@Suite struct BoardCalibrationTests {
    func temporaryFile(_ text: String) throws -> String {
        var template = Array("/tmp/ocm-calibration-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        try #require(descriptor >= 0)
        _ = text.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func aSavedCalibrationReadsBack() throws {
        let path = try temporaryFile("")
        defer { unlink(path) }
        let calibration = BoardCalibration(gyroscopeBias: [0.001, -0.002, 0.0005], magnetometerOffset: [40.5, -25.25, 10])
        try calibration.save(path: path, board: "test.board")
        #expect(try BoardCalibration.load(path: path) == calibration)
    }

    @Test func aMissingFileIsNoCalibration() throws {
        #expect(try BoardCalibration.load(path: "/tmp/ocm-no-such-calibration-file") == nil)
    }

    @Test func aMalformedLineIsReportedWithItsNumber() throws {
        let path = try temporaryFile("# comment\ngyroscope-bias = 0.1 0.2\n")
        defer { unlink(path) }
        #expect { _ = try BoardCalibration.load(path: path) } throws: { error in
            "\(error)" == "\(path):2: expected \"key = x y z\", found \"gyroscope-bias = 0.1 0.2\". Run `motionctl calibrate` again to write a new one."
        }
        let unknown = try temporaryFile("barometer-offset = 1 1 1\n")
        defer { unlink(unknown) }
        #expect { _ = try BoardCalibration.load(path: unknown) } throws: { "\($0)".contains(":1: unknown key \"barometer-offset\"") }
    }
}
