import Glibc

extension BoardDescription {
    /// Reads and validates a board file.
    public static func load(path: String) throws(EngineError) -> BoardDescription {
        guard let file = fopen(path, "r") else {
            throw .board(BoardError(path: path, line: nil, problem: "could not open the board file: \(String(cString: strerror(errno)))",
                                    advice: "Check the path; installed board files are in \(BoardLocations.boardsFolder) (`motionctl probe` writes one for what answers on the I2C buses)."))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[..<count]
            if count < chunk.count { break }
            if bytes.count > 1 << 20 { throw .board(BoardError(path: path, line: nil, problem: "the file is larger than 1 MiB: not a board file")) }
        }
        if ferror(file) != 0 { throw .board(BoardError(path: path, line: nil, problem: "could not read the board file: \(String(cString: strerror(errno)))")) }
        do {
            return try BoardFileParser.parse(String(decoding: bytes, as: UTF8.self), path: path)
        } catch {
            throw .board(error)
        }
    }
}
