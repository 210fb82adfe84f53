import Glibc
@testable import MotionEngine
import Testing

/// The calibration file's new keys (accelerometer, magnetometer uncertainty and soft iron):
/// written and read back exactly, and a malformed line reported with its file, line and what to do.
@Suite struct CalibrationFileTests {
    /// A fresh folder under /tmp (removed by `removeFolder`).
    static func temporaryFolder() throws -> String {
        var template = Array("/tmp/ocm-calibration-test-XXXXXX".utf8CString)
        try #require(mkdtemp(&template) != nil)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func removeFolder(_ folder: String) {
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(folder + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(folder)
    }

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
    }

    static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 1024)
        while fgets(&buffer, Int32(buffer.count), file) != nil { text += buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
        return text
    }

    @Test func everyKeyReadsBackExactly() throws {
        let folder = try Self.temporaryFolder()
        defer { Self.removeFolder(folder) }
        let path = folder + "/nested/board.calibration"  // the folder is created
        let calibration = BoardCalibration(gyroscopeBias: [0.001, -0.002, 0.0005], accelerometerOffset: [0.3125, -0.2, 0.45],
                                           accelerometerScale: [0.97, 1.0309278350515465, 0.985], magnetometerOffset: [120.5, -60.25, 35],
                                           magnetometerOffsetUncertainty: 0.73, magneticFieldStrength: 48.25, magnetometerSoftIron: [0.91, 1.09, 1.0, 0.045, -0.03, 0.04])
        try calibration.save(path: path, board: "test.board")
        #expect(try BoardCalibration.load(path: path) == calibration)
        let text = Self.read(path)
        #expect(text.contains("accelerometer-offset = 0.3125 -0.2 0.45      # m/s², device axes\n"))
        #expect(text.contains("accelerometer-scale = 0.97 1.0309278350515465 0.985      # factor, device axes\n"))
        #expect(text.contains("magnetometer-offset-uncertainty = 0.73      # µT, 1σ of the worst axis, device axes\n"))
        #expect(text.contains("magnetic-field-strength = 48.25      # µT, the field strength the offset left\n"))
        #expect(text.contains("magnetometer-soft-iron = 0.91 1.09 1.0 0.045 -0.03 0.04      # factor, symmetric matrix: xx yy zz xy xz yz, device axes\n"))
        // Written atomically: no temporary file left beside it.
        #expect(access(path + ".new.\(getpid())", F_OK) != 0)
    }

    @Test func partialFilesAndCommentsRead() throws {
        let folder = try Self.temporaryFolder()
        defer { Self.removeFolder(folder) }
        let path = folder + "/a.calibration"
        Self.write("# only the accelerometer\n\naccelerometer-scale = 1.01 0.99 1   # hand-written\r\n", to: path)
        #expect(try BoardCalibration.load(path: path) == BoardCalibration(accelerometerScale: [1.01, 0.99, 1]))
    }

    /// The error `load` throws for a file of `text`, as a person reads it.
    func error(loading text: String) throws -> String {
        let folder = try Self.temporaryFolder()
        defer { Self.removeFolder(folder) }
        let path = folder + "/bad.calibration"
        Self.write(text, to: path)
        do {
            _ = try BoardCalibration.load(path: path)
            return "no error"
        } catch {
            return "\(error)".replacingFirst(path, with: "FILE")
        }
    }

    @Test func malformedLinesNameTheirLineAndWhatIsWrong() throws {
        #expect(try error(loading: "gyroscope-bias = 0 0 0\naccelerometer-offset = 0.1 0.2\n")
                == "FILE:2: expected \"key = x y z\", found \"accelerometer-offset = 0.1 0.2\". Run `motionctl calibrate` again to write a new one.")
        #expect(try error(loading: "accelerometer-scale = 1 1 one\n")
                == "FILE:1: expected \"key = x y z\", found \"accelerometer-scale = 1 1 one\". Run `motionctl calibrate` again to write a new one.")
        #expect(try error(loading: "magnetometer-soft-iron = 1 1 1\n")
                == "FILE:1: expected \"magnetometer-soft-iron = xx yy zz xy xz yz\", found \"magnetometer-soft-iron = 1 1 1\". Run `motionctl calibrate` again to write a new one.")
        #expect(try error(loading: "accelerometer-scale = 1 0 1\n")
                == "FILE:1: accelerometer-scale 0.0 is outside 0.5…2.0, which no working accelerometer needs: \"accelerometer-scale = 1 0 1\". Run `motionctl calibrate` again to write a new one.")
        #expect(try error(loading: "accelerometer-offset = nan 0 0\n").hasPrefix("FILE:1: expected \"key = x y z\""))
        #expect(try error(loading: "accelerometer-bias = 1 1 1\n").hasPrefix("FILE:1: unknown key \"accelerometer-bias\" (known: gyroscope-bias, accelerometer-offset, accelerometer-scale,"))
        #expect(try error(loading: "accelerometer offset 1 1 1\n").hasPrefix("FILE:1: expected \"key = numbers\" (keys: gyroscope-bias,"))
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, let range = firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
