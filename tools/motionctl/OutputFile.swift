import Foundation

/// A CSV file written line by line, with errors that name it.
final class OutputFile {
    let path: String
    private let handle: UnsafeMutablePointer<FILE>

    convenience init(folder: String, name: String, header: String) throws {
        try self.init(path: (folder as NSString).appendingPathComponent(name), header: header)
    }

    init(path: String, header: String) throws {
        self.path = path
        guard let handle = fopen(path, "w") else {
            throw OutputError(description: "Could not create \(path): \(String(cString: strerror(errno))). Check that the folder is writable.")
        }
        self.handle = handle
        // Rows are short and many (a fused sample each): write in 1 MiB blocks.
        setvbuf(handle, nil, _IOFBF, 1 << 20)
        write(header)
    }

    func write(_ line: String) {
        fputs(line, handle)
        fputc(0x0A, handle)
    }

    func close() throws {
        guard ferror(handle) == 0, fclose(handle) == 0 else {
            throw OutputError(description: "Could not finish writing \(path): \(String(cString: strerror(errno))). Check the free space.")
        }
    }
}

/// An output file that could not be written, with what to do.
struct OutputError: Error, CustomStringConvertible {
    var description: String
}
