/// How `motiond` runs (its command-line options).
package struct DaemonConfiguration: Sendable {
    /// The board file (resolved as `LiveBoard.resolve` does: absolute, relative, or a name in boards/).
    package var board = "sim-walker.board"
    /// The history root: the board's history goes in `ROOT/BOARD` (`HistoryStore.directory`).
    package var historyRoot = "/var/lib/opencoremotion"
    package var socketPath = "/run/opencoremotion/motiond.sock"
    package var policyPath = "/etc/opencoremotion/policy"
    /// Connections beyond this many are refused with an error.
    package var maximumClients = 256

    package init() {}
}
