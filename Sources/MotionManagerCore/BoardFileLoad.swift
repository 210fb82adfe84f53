import MotionEngine

/// A board file opened for a motion manager or a pedometer: the process's engine for it, or
/// why it could not be loaded (then nothing is available, and every start says why).
struct BoardFileLoad {
    let board: LiveBoard?
    /// The board file, resolved (absolute); "probed:i2c-1" for a board probed in memory.
    let path: String
    /// Core Motion's error for a board file that could not be loaded.
    let error: MotionManagerError?
    /// The loader's own error, for the C API's status codes (nil when no board is configured:
    /// opening succeeds and every start reports `error`).
    let failure: EngineError?

    /// Opens the board file at `path` (resolved as `LiveBoard.resolve` does): reads it only.
    init(_ path: String) {
        self.init(path, namedBy: nil)
    }

    private init(_ path: String, namedBy: String?) {
        do {
            let live = try LiveBoard.open(path: path)
            (board, self.path, error, failure) = (live, live.path, nil, nil)
        } catch {
            (board, self.path, failure) = (nil, LiveBoard.resolve(path), error)
            let named = namedBy.map { " (the system's board, named by \($0))" } ?? ""
            self.error = MotionManagerError(.notAvailable, "The board file could not be loaded\(named): \(error)")
        }
    }

    private init(probed boardFile: String, buses: [Int]) {
        let key = "probed:" + buses.map { "i2c-\($0)" }.joined(separator: ",")
        do {
            let live = try LiveBoard.open(boardFile: boardFile, key: key)
            (board, path, error, failure) = (live, key, nil, nil)
        } catch {
            (board, path, failure) = (nil, key, error)
            self.error = MotionManagerError(.notAvailable, "The board probed on the I2C buses could not be used: \(error). "
                                            + "Write a board file (`motionctl probe`, boards/README.md) and name it in \(SystemBoard.configurationFile()).")
        }
    }

    /// The system's board, by `SystemBoard`'s rule: the environment's or the configuration
    /// file's board file, else what the once-per-process probe found, else why there is none.
    static func system() -> BoardFileLoad {
        switch SystemBoard.choose(probe: { probedBuses }) {
        case .file(let path, let namedBy): BoardFileLoad(path, namedBy: namedBy)
        case .probed(let boardFile, let buses): BoardFileLoad(probed: boardFile, buses: buses)
        case .unavailable(let message): BoardFileLoad(unavailable: message)
        }
    }

    private init(unavailable message: String) {
        (board, path, failure) = (nil, "the system's board (not configured)", nil)
        error = MotionManagerError(.notAvailable, message)
    }

    /// The I2C buses probed the first time a process needs the system's board and none is
    /// configured: probing reads identity registers at some twenty addresses per bus, once.
    private static let probedBuses = SystemBoard.probeLinuxBuses()
}

extension LiveBoard {
    /// The system's board (`SystemBoard`'s rule), or why there is none: what motiond runs
    /// without `--board`.
    package static func openSystemBoard() throws(MotionManagerError) -> LiveBoard {
        let load = BoardFileLoad.system()
        guard let board = load.board else {
            throw load.error ?? MotionManagerError(.notAvailable, "The system's board could not be opened.")
        }
        return board
    }
}
