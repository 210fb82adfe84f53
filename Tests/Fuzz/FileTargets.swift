// The files a user or an administrator writes by hand (board files, calibration, motiond's
// access policy, the MQTT configuration) and the recordings anyone may hand to `motionctl
// replay`: each parser takes the input as the whole file.
internal import CZlib
internal import Glibc
internal import MotionDaemon
internal import MotionEngine
internal import MotionMQTT
internal import Recordings

enum FileTargets {
    /// A recording, plain or gzip: the first byte's bit 0 compresses the rest with zlib first
    /// (so the reader's decompression path sees well-formed gzip of hostile text; a raw input
    /// starting with the gzip magic reaches zlib's checks too), bit 1 sets skipUnknownSensors.
    static func recording(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        let content = UnsafeRawBufferPointer(rebasing: bytes[1...])
        let path: String
        if first & 1 != 0 {
            path = ScratchFile.path + ".gz"
            guard let file = gzopen(path, "wb1") else { return fuzzCheck(false, "gzopen \(path) failed") }
            if content.count > 0 { _ = gzwrite(file, content.baseAddress, UInt32(content.count)) }
            gzclose(file)
        } else {
            path = ScratchFile.write(content)
        }
        guard let reader = try? RecordingReader(path: path, options: .init(skipUnknownSensors: first & 2 != 0)) else { return }
        var previousLine = reader.lineNumber
        while true {
            do throws(RecordingError) {
                guard try reader.next() != nil else { return }
            } catch {
                return
            }
            fuzzCheck(reader.lineNumber > previousLine, "the reader did not advance past line \(previousLine)")
            previousLine = reader.lineNumber
        }
    }

    static func boardFile(_ bytes: UnsafeRawBufferPointer) {
        _ = try? BoardFileParser.parse(String(decoding: bytes, as: UTF8.self), path: "fuzz.board")
    }

    /// A stored calibration; when it loads, saving and loading it again gives the same values.
    static func calibration(_ bytes: UnsafeRawBufferPointer) {
        guard let calibration = try? BoardCalibration.load(path: ScratchFile.write(bytes)) else { return }
        let copy = ScratchFile.path + ".saved"
        do throws(EngineError) {
            try calibration.save(path: copy, board: "fuzz.board")
            let again = try BoardCalibration.load(path: copy)
            fuzzCheck(again == calibration, "a saved calibration loads differently: \(calibration) vs \(String(describing: again))")
        } catch {
            fuzzCheck(false, "a loaded calibration could not be saved and loaded again: \(error)")
        }
    }

    /// motiond's policy file; when it parses, every kind of peer gets a decision.
    static func policy(_ bytes: UnsafeRawBufferPointer) {
        guard let policy = try? AccessPolicy.parse(String(decoding: bytes, as: UTF8.self), path: "fuzz.policy") else { return }
        for uid in [0, 1, 1000, 65_534, UInt32.max] as [UInt32] {
            _ = policy.decide(PeerCredentials(pid: 1, uid: uid, gid: uid, userName: "u\(uid)", groups: [uid]))
        }
    }

    static func mqttConfiguration(_ bytes: UnsafeRawBufferPointer) {
        _ = try? MQTTConfigurationFile.load(path: ScratchFile.write(bytes))
    }
}
