import Glibc

/// Where installed board files are: under the install prefix of the library or program that
/// holds this code (`PREFIX/lib/libopencoremotion.so` or `PREFIX/bin/motionctl` →
/// `PREFIX/share/opencoremotion/boards`), as `tools/install-c-library.sh` puts them.
///
/// Never a build path: an app copied to another machine, or linked against an installed
/// library, must not depend on where the source tree was when it was compiled. A program run
/// from a build folder (`.build/debug/motionctl`) has no installed boards; it names its board
/// file (`--board`, `init(board:)`, `OPENCOREMOTION_BOARD`) relative to the current directory.
public enum BoardLocations {
    /// The install prefix: the folder above the one holding the shared library or executable
    /// this code was linked into.
    public static let installPrefix: String = parent(of: parent(of: imagePath))

    /// `PREFIX/share/opencoremotion`: board files (`boards/`) and the recordings simulated
    /// boards replay, under the same relative paths as in the source tree.
    public static var dataFolder: String { installPrefix + "/share/opencoremotion" }

    /// `PREFIX/share/opencoremotion/boards`.
    public static var boardsFolder: String { dataFolder + "/boards" }

    /// Where installed data is looked for, in order: this code's own prefix, then a source
    /// install's (/usr/local) and the Debian packages' (/usr). A Swift app links the library
    /// in statically, so its own prefix is the app's (`~/bin`, `.build/release`), while the
    /// board files and recordings it names come from the installed packages.
    public static var dataFolders: [String] {
        var folders = [dataFolder]
        for system in ["/usr/local/share/opencoremotion", "/usr/share/opencoremotion"] where !folders.contains(system) {
            folders.append(system)
        }
        return folders
    }

    /// The installed boards folders, in `dataFolders`' order.
    public static var boardsFolders: [String] { dataFolders.map { $0 + "/boards" } }

    /// A data file named by its path in the source tree ("boards/sim-walker.board",
    /// "Tests/Recordings/x.csv.gz"): relative to the current directory if it is there (a
    /// checkout), else under the first of `dataFolders` that has it (installed); as given when
    /// none has it, so the error names it. What tools use for their documented simulated
    /// defaults.
    public static func locate(_ path: String) -> String {
        if path.hasPrefix("/") || access(path, F_OK) == 0 { return path }
        return dataFolders.lazy.map { $0 + "/" + path }.first { access($0, F_OK) == 0 } ?? path
    }

    /// A board's `motion` recording: absolute as is; relative from `root` (`dataRoot`) if it is
    /// there, else as `locate` finds it (the current directory, the installed data), so a copy
    /// of a simulated board elsewhere still finds the recording its original named. Not found:
    /// `root`'s, for the error to name.
    public static func motionFile(_ path: String, root: String) -> String {
        if path.hasPrefix("/") { return path }
        let fromRoot = root + "/" + path
        if access(fromRoot, F_OK) == 0 { return fromRoot }
        let located = locate(path)
        return access(located, F_OK) == 0 ? located : fromRoot
    }

    /// Where a board file's relative `motion` paths start: the folder above the board file's
    /// own (the source tree's root for `boards/x.board`, `PREFIX/share/opencoremotion` for an
    /// installed one), so a simulated board and its recording move together.
    public static func dataRoot(forBoardFile path: String) -> String {
        path.contains("/") ? parent(of: parent(of: path)) : ".."
    }

    /// The file this code was loaded from: the mapping of /proc/self/maps that holds this
    /// image's handle (`#dsohandle`: the shared library's, or the executable's when linked in
    /// statically), else the running executable. (Glibc's `dladdr` would say the same but is
    /// not in Swift's Glibc module, and gives only argv[0] for the main program.)
    static let imagePath: String = mappedFile(containing: UInt(bitPattern: #dsohandle)) ?? executablePath

    /// The file mapped at `address` in this process, from /proc/self/maps
    /// ("start-end perms offset device inode path" per line, addresses in hexadecimal).
    static func mappedFile(containing address: UInt) -> String? {
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, let dash = fields[0].firstIndex(of: "-"),
                  let start = UInt(fields[0][..<dash], radix: 16), let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  start <= address, address < end else { continue }
            let path = fields[5...].joined(separator: " ").trimmingNewline
            return path.hasPrefix("/") ? path : nil
        }
        return nil
    }

    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "/usr/local/bin/unknown" }  // no /proc: assume the default prefix
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension String {
    fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
