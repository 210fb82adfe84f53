/// How `motiond` runs (its command-line options).
package struct DaemonConfiguration: Sendable {
    /// The board file (resolved as `LiveBoard.resolve` does: absolute, relative, or the name of
    /// an installed one); nil for the system's board (`SystemBoard`: OPENCOREMOTION_BOARD,
    /// /etc/opencoremotion/board, else a probe of the I2C buses).
    package var board: String?
    /// The history root: the board's history goes in `ROOT/BOARD` (`HistoryStore.directory`).
    package var historyRoot = "/var/lib/opencoremotion"
    package var socketPath = "/run/opencoremotion/motiond.sock"
    package var policyPath = "/etc/opencoremotion/policy"
    /// Connections beyond this many are refused with an error and closed at once.
    package var maximumClients = 256
    /// Connections of one user (uid) beyond this many are refused the same way, so that one
    /// user, allowed motion data or not, cannot take every place (or every descriptor).
    package var maximumClientsPerUser = 32
    /// A connection must say hello within this, and a frame begun must be whole within it,
    /// or the connection is closed (the client library sends hello right after connecting
    /// and every frame in one write). ns.
    package var handshakeTimeoutNanoseconds: Int64 = 5_000_000_000
    /// Requests of a client are read no further while this many bytes wait to go to it: its
    /// answers are never dropped, so a client that sends requests and never reads the answers
    /// is held off by the kernel's socket buffers instead of the daemon's memory.
    package var unsentBytesLimit = 256 * 1024
    /// For the clock test only: a file holding a step of the wall clock in ns, read every
    /// 100 ms into `WallClock.simulatedStepNanoseconds` (nil: the real clock, always in use).
    package var wallClockStepFile: String?

    package init() {}
}
