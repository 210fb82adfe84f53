import Glibc
import Recordings
import Testing
import TestSupport

@Suite struct CompressedFileTests {
    static let bundled = ProjectPaths.recording("uci_hapt_exp01_user01_stand_walk.csv.gz")

    /// Bytes of a file, for making damaged copies.
    static func bytes(of path: String) -> [UInt8] {
        let file = fopen(path, "rb")!
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[..<count] }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let file = fopen(path, "wb")!
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    @Test func aTruncatedGzipStreamIsAnErrorNotAShortRead() {
        let original = Self.bytes(of: Self.bundled)
        let complete = readAll(Self.bundled)
        #expect(complete.error == nil && complete.samples.count == 10_000)
        // Cut at several places, including inside the gzip trailer (CRC, length).
        for keep in [original.count / 3, original.count / 2, original.count - 100, original.count - 4] {
            let path = scratchPath("truncated-\(keep).csv.gz")
            defer { unlink(path) }
            Self.write(Array(original[..<keep]), to: path)
            let result = readAll(path)
            #expect(result.error?.contains("truncated") == true, "cut at \(keep) of \(original.count): \(result.error ?? "read \(result.samples.count) samples without error")")
            #expect(result.samples.count < complete.samples.count || result.error != nil)
        }
    }

    @Test func corruptGzipDataIsAnError() {
        var damaged = Self.bytes(of: Self.bundled)
        for index in stride(from: damaged.count / 2, to: damaged.count / 2 + 64, by: 1) { damaged[index] ^= 0x5A }
        let path = scratchPath("corrupt.csv.gz")
        defer { unlink(path) }
        Self.write(damaged, to: path)
        let result = readAll(path)
        #expect(result.error != nil, "read \(result.samples.count) samples of a corrupt file without error")
    }

    @Test func plainAndCompressedCopiesGiveTheSameSamples() throws {
        let compressed = readAll(Self.bundled)
        // Decompress with zcat (an independent gzip implementation) into a plain .csv.
        let plain = scratchPath("plain.csv")
        defer { unlink(plain) }
        #expect(system("zcat '\(Self.bundled)' > '\(plain)'") == 0)
        let uncompressed = readAll(plain)
        #expect(uncompressed.error == nil)
        #expect(uncompressed.samples == compressed.samples)
    }

    @Test func aMissingFileSaysSo() {
        let result = readAll("/nonexistent/folder/walk.csv.gz")
        #expect(result.error == "/nonexistent/folder/walk.csv.gz: could not open the file: No such file or directory. Check the path.")
    }
}
