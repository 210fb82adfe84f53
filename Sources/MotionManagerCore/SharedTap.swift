import MotionAlgorithms
import MotionEngine
import Locking

/// One `ReadingTap` on a board shared by the users of a stage that runs on the engine thread
/// (a board's pedometer, its activity classifier): the first user's `start` adds it, the last
/// `close` removes it, and a failed board drops it so the next `start` adds a new one.
final class SharedTap: Sendable {
    private let board: LiveBoard
    private let channels: Set<SensorChannel>
    private struct State {
        var users = 0
        /// The tap while running.
        var tap: ReadingTap?
    }
    private let state = Lock(State())

    init(board: LiveBoard, channels: Set<SensorChannel>) {
        self.board = board
        self.channels = channels
    }

    /// One more user (who then calls `start`: the user stays counted if the board cannot be
    /// brought up, and `close` is still owed).
    func addUser() {
        state.withLock { $0.users += 1 }
    }

    /// One user less: the last one removes the tap.
    func close() {
        let tap = state.withLock { state -> ReadingTap? in
            state.users -= 1
            guard state.users <= 0 else { return nil }
            defer { state.tap = nil }
            return state.tap
        }
        if let tap { board.remove(tap) }
    }

    /// Starts the tap if it is not running (the board failed, or could not be brought up
    /// before), calling `reset` first (a new start begins with a new stage: the last session's
    /// state is stale); returns once the board is up, or throws why it could not be.
    func start(reset: () -> Void, sink: @escaping @Sendable (TapEvent) -> Void) throws(MotionManagerError) {
        let tap = ReadingTap(channels: channels, sink: sink)
        let isNew = state.withLock { state -> Bool in
            guard state.tap == nil else { return false }
            state.tap = tap
            return true
        }
        guard isNew else { return }
        // Before the tap is added: no reading can reach the stage while it is reset.
        reset()
        do throws(MotionManagerError) {
            try board.add(tap)
        } catch {
            state.withLock { state in if state.tap === tap { state.tap = nil } }
            throw error
        }
    }

    /// The engine dropped the tap (the board failed): the next `start` starts a new one.
    func dropped() {
        state.withLock { $0.tap = nil }
    }
}

/// The process's one instance of `Value` per board (by board file path), made on first use.
final class PerBoard<Value: Sendable>: Sendable {
    private let instances = Lock<[String: Value]>([:])

    func of(_ board: LiveBoard, make: (LiveBoard) -> Value) -> Value {
        instances.withLock { instances in
            if let existing = instances[board.path] { return existing }
            let value = make(board)
            instances[board.path] = value
            return value
        }
    }
}
