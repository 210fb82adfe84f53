/// Why history queries need motiond, as Core Motion's behaviour requires.
///
/// On an iPhone, `queryPedometerData` and `queryActivityStarting` answer from the motion
/// coprocessor's history of the last 7 days, recorded whether or not any app runs. Here that
/// recorder is motiond. A process without it could only answer from what it saw since its first
/// manager was made, and would lose that with its last one: a journaling app would get "no
/// steps" for the morning it was not running, indistinguishable from a morning in bed. So
/// in-process queries fail with `notAvailable` (`CMError`) and say how to get the history.
/// (Persisting an in-process history in the user's state folder was the alternative: it would
/// still miss every hour no app ran, and two apps would keep two histories of one board.)
enum HistoryQueries {
    static func needsDaemon(_ what: String, live: String) -> MotionManagerError {
        MotionManagerError(.notAvailable, "\(what) need motiond, which keeps 7 days of history whether or not an app runs; "
                           + "it does not answer here, so this process has no history to give. Start it (`sudo tools/install-motiond.sh`, "
                           + "or `systemctl start motiond` where it is installed: docs/motiond.md), or use live updates (\(live)).")
    }
}
