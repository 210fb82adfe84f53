import Glibc

extension BoardDescription {
    /// The repository's `boards/` folder, found from this source file (in a checkout).
    public static let boardsFolder: String = {
        var path = "\(#filePath)"  // <root>/Sources/MotionEngine/Boards/BoardDescription+Loading.swift
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/boards"
    }()

    /// The repository root (relative `motion` paths in board files start here).
    public static var repositoryRoot: String { String(boardsFolder.dropLast("/boards".count)) }

    /// Reads and validates a board file.
    public static func load(path: String) throws(EngineError) -> BoardDescription {
        guard let file = fopen(path, "r") else {
            throw .board(BoardError(path: path, line: nil, problem: "could not open the board file: \(String(cString: strerror(errno)))",
                                    advice: "Board files are in \(boardsFolder)."))
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
