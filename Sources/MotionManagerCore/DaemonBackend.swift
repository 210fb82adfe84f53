package import MotionDaemonClient
import MotionDaemonProtocol
package import MotionAlgorithms
import MotionEngine

/// Where a core's data comes from: motiond, or this process's own engine.
package enum MotionBackend: Sendable, Equatable {
    /// motiond at this socket serves the board (history from its 7-day store).
    case daemon(socketPath: String)
    /// The board runs in this process (history since the first core of the board was made).
    case inProcess

    /// "via motiond at /run/opencoremotion/motiond.sock" or "in-process engine".
    package var summary: String {
        switch self {
        case .daemon(let path): "via motiond at \(path)"
        case .inProcess: "in-process engine"
        }
    }
}

/// The rule that decides between motiond and the in-process engine, the same for the motion
/// manager, the pedometer and the activity manager, in Swift and in C:
///
/// 1. `OPENCOREMOTION_NO_DAEMON=1` (in the environment): in-process, always.
/// 2. Otherwise the daemon's socket (`daemonSocket` if given, else `OPENCOREMOTION_SOCKET`,
///    else `/run/opencoremotion/motiond.sock`) is tried; if nothing answers: in-process.
/// 3. It answers: a core made without a board file (nil: "the system's board") uses the
///    daemon; one made with a board file uses it only if that is the daemon's own board file
///    (the same resolved path, from the daemon's status) — any other board runs in-process.
///
/// A user the daemon does not authorize still gets the daemon (its starts and queries then
/// fail with `notAuthorized` saying what to do): falling back to the devices directly would
/// bypass the administrator's policy. Likewise a core for the system's board that the daemon
/// refuses (its connection limits) reports why instead of running the board beside it.
package enum DaemonBackend {
    /// How the rule's daemon answered.
    enum Answer {
        /// The rule picks it: the client, and the daemon's board file (or "motiond board NAME"
        /// when the daemon does not tell this user its status).
        case daemon(DaemonClient, boardPath: String)
        /// Nothing listens, `OPENCOREMOTION_NO_DAEMON`, or another board file: in-process.
        case inProcess
        /// The daemon runs and refused the connection (its limits): for the system's board,
        /// the error to report rather than drive the chips beside it.
        case refused(DaemonClientError)
    }

    static func answer(board: String?, daemonSocket: String?, name: String) -> Answer {
        guard !DaemonClient.isDisabledByEnvironment else { return .inProcess }
        let client: DaemonClient
        do {
            client = try DaemonClient(path: daemonSocket ?? DaemonClient.socketPath, name: name)
        } catch {
            return error.kind == .notRunning || board != nil ? .inProcess : .refused(error)
        }
        let daemonBoard = try? client.status().boardPath
        if let board, daemonBoard != LiveBoard.resolve(board) {
            client.close()
            return .inProcess
        }
        return .daemon(client, boardPath: daemonBoard ?? "motiond board \"\(client.welcome.boardName)\"")
    }

    /// A connected client when the rule picks the daemon, and the daemon's board file.
    package static func connect(board: String?, daemonSocket: String?, name: String) -> (client: DaemonClient, boardPath: String)? {
        guard case .daemon(let client, let boardPath) = answer(board: board, daemonSocket: daemonSocket, name: name) else { return nil }
        return (client, boardPath)
    }

    /// What a core runs on, by the rule: motiond (no board: its board file, or its name), or
    /// `board` (`defaultBoard` when nil) loaded in-process, with why it could not be.
    static func source(board: String?, daemonSocket: String?, name: String, defaultBoard: String = ManagerCore.defaultBoardPath)
        -> (daemon: DaemonClient?, board: LiveBoard?, boardPath: String, boardError: MotionManagerError?, boardFailure: EngineError?) {
        switch answer(board: board, daemonSocket: daemonSocket, name: name) {
        case .daemon(let client, let path):
            return (client, nil, path, nil, nil)
        case .refused(let error):
            let path = daemonSocket ?? DaemonClient.socketPath
            return (nil, nil, "motiond at \(path)", MotionManagerError(.notAvailable, "\(name): \(error.description)"), nil)
        case .inProcess:
            let load = BoardFileLoad(board ?? defaultBoard)
            return (nil, load.board, load.path, load.error, load.failure)
        }
    }

    /// Whether the system's board (nil) or the board file `board` has `sensor`, asking motiond
    /// when the rule picks it: Core Motion's class methods (`isStepCountingAvailable()`).
    package static func boardHas(_ sensor: SensorChannel, board: String?) -> Bool {
        if let (client, _) = connect(board: board, daemonSocket: nil, name: "availability") {
            defer { client.close() }
            let bit: WireSensors = switch sensor {
            case .accelerometer: .accelerometer
            case .gyroscope: .gyroscope
            case .magnetometer: .magnetometer
            case .barometer: .barometer
            case .thermometer: .thermometer
            }
            return client.welcome.sensors.contains(bit)
        }
        return (try? LiveBoard.open(path: board ?? ManagerCore.defaultBoardPath))?.channels.contains(sensor) ?? false
    }

    /// What motiond grants this user, as `CMAuthorizationStatus`'s raw value: 3 (authorized)
    /// when the in-process engine serves (the device files' permissions decide there).
    package static var systemAuthorization: Int {
        guard !DaemonClient.isDisabledByEnvironment, let client = try? DaemonClient(name: "authorization") else { return 3 }
        defer { client.close() }
        return Int(client.welcome.authorization.rawValue)
    }

    /// The Core Motion error for a failed daemon request.
    package static func error(_ error: DaemonClientError, doing what: String) -> MotionManagerError {
        switch error.kind {
        case .unauthorized: MotionManagerError(.notAuthorized, "\(what): \(error.description)")
        case .rejected(let code) where code == .notAvailable: MotionManagerError(.notAvailable, "\(what): \(error.description)")
        case .rejected(let code) where code == .badRequest: MotionManagerError(.invalidParameter, "\(what): \(error.description)")
        default: MotionManagerError(.unknown, "\(what): \(error.description)")
        }
    }

    /// Whether the welcome lets this user have data; the error saying what to do otherwise.
    package static func authorizationError(_ client: DaemonClient, doing what: String) -> MotionManagerError? {
        let welcome = client.welcome
        switch welcome.authorization {
        case .authorized: return nil
        case .denied:
            return MotionManagerError(.notAuthorized, "\(what): motiond at \(client.path) does not give motion data to users outside group motion. "
                                      + "Ask your administrator to add you (sudo usermod -aG motion $USER), then log in again.")
        case .restricted, .notDetermined:
            return MotionManagerError(.notAuthorized, "\(what): motiond's policy file denies this user motion data. Ask your administrator.")
        }
    }
}

/// A core that runs on motiond or on a board in-process (`DaemonBackend.source`): its backend
/// and one line saying what it runs on, the same for every kind of manager.
package protocol DaemonOrBoardCore: AnyObject {
    var daemon: DaemonClient? { get }
    var board: LiveBoard? { get }
    var boardPath: String { get }
}

extension DaemonOrBoardCore {
    package var backend: MotionBackend { daemon.map { .daemon(socketPath: $0.path) } ?? .inProcess }

    /// "/…/boards/sim-walker.board: \"…\"" or "/…/x.board, not loaded", and the backend.
    package var summary: String {
        if let daemon { return "\(boardPath): \"\(daemon.welcome.boardName)\", \(backend.summary)" }
        return boardPath + (board.map { ": \"\($0.description.name)\"" } ?? ", not loaded")
    }
}
