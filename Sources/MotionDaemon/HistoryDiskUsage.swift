internal import Glibc
import MotionDaemonProtocol

/// Bytes and files of each history kind on disk (`status`): the segment files in
/// `directory/accelerometer`, `pedometer` and `activity`.
enum HistoryDiskUsage {
    static let kinds = ["accelerometer", "pedometer", "activity"]

    static func measure(_ directory: String) -> [StorageUse] {
        kinds.map { kind in
            var use = StorageUse(kind: kind, bytes: 0, files: 0)
            let folder = "\(directory)/\(kind)"
            guard let stream = opendir(folder) else { return use }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard !name.hasPrefix(".") else { continue }
                var info = stat()
                guard stat("\(folder)/\(name)", &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                use.bytes += UInt64(info.st_size)
                use.files += 1
            }
            return use
        }
    }
}
