import MotionEngine

/// A board file opened for a motion manager or a pedometer: the process's engine for it, or
/// why it could not be loaded (then nothing is available, and every start says why).
struct BoardFileLoad {
    let board: LiveBoard?
    /// The board file, resolved (absolute).
    let path: String
    /// Core Motion's error for a board file that could not be loaded.
    let error: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    let failure: EngineError?

    /// Opens the board file at `path` (resolved as `LiveBoard.resolve` does): reads it only.
    init(_ path: String) {
        do {
            let live = try LiveBoard.open(path: path)
            (board, self.path, error, failure) = (live, live.path, nil, nil)
        } catch {
            (board, self.path, failure) = (nil, LiveBoard.resolve(path), error)
            self.error = MotionManagerError(.notAvailable, "The board file could not be loaded: \(error)")
        }
    }
}
