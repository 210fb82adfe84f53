import Glibc

/// Which board "the system's board" is, when a program names none (`CMMotionManager()`,
/// `ocm_motion_manager_open(NULL, …)`, `motiond` without `--board`). First that applies:
///
/// 1. A board file the program names (`init(board:)`, `--board`): the caller's, not decided here.
/// 2. `OPENCOREMOTION_BOARD`: a board file, found as a named one is (absolute, relative to the
///    current directory or its `boards/`, or the name of an installed one:
///    `sim-walker.board` in `PREFIX/share/opencoremotion/boards`).
/// 3. The configuration file `/etc/opencoremotion/board`: a board file (`motionctl probe
///    --write` writes it; or a copy of an installed one). `OPENCOREMOTION_CONFIG_DIR` replaces
///    `/etc/opencoremotion` (tests, and users without root).
/// 4. Nothing configured: the I2C buses are probed once, and what answers is the board, if an
///    IMU did; otherwise an error that says what to check and how to configure the board.
///
/// Simulated boards are used only when named (2 or 3): a real device never falls back to
/// simulated data.
public enum SystemBoard {
    /// The environment variable naming the board file.
    public static let environmentVariable = "OPENCOREMOTION_BOARD"
    /// The environment variable replacing the configuration folder.
    public static let configurationFolderVariable = "OPENCOREMOTION_CONFIG_DIR"
    /// The system's configuration folder.
    public static let defaultConfigurationFolder = "/etc/opencoremotion"

    /// What the rule found.
    public enum Choice: Sendable, Equatable {
        /// A board file, and which step named it ("OPENCOREMOTION_BOARD", or the configuration file's path).
        case file(path: String, namedBy: String)
        /// No configuration; the probe found an IMU: this board file text, made in memory.
        case probed(boardFile: String, buses: [Int])
        /// Nothing configured and nothing usable answered: what to do, for a person.
        case unavailable(String)
    }

    /// The configuration file: `OPENCOREMOTION_CONFIG_DIR/board` or `/etc/opencoremotion/board`.
    public static func configurationFile(environment: (String) -> String? = SystemBoard.environment) -> String {
        (environment(configurationFolderVariable).flatMap { $0.isEmpty ? nil : $0 } ?? defaultConfigurationFolder) + "/board"
    }

    /// The rule: `explicit` is the program's board file (step 1: nil when it names none).
    /// `environment`, `fileExists` and `probe` are the process's own unless a test gives others;
    /// `probe` is called only when nothing is configured.
    public static func choose(explicit: String? = nil, environment: (String) -> String? = SystemBoard.environment,
                              fileExists: (String) -> Bool = SystemBoard.fileExists,
                              probe: () -> ProbeOutcome) -> Choice {
        if let explicit { return .file(path: explicit, namedBy: "the program") }
        if let named = environment(environmentVariable), !named.isEmpty { return .file(path: named, namedBy: environmentVariable) }
        let configuration = configurationFile(environment: environment)
        if fileExists(configuration) { return .file(path: configuration, namedBy: configuration) }
        let unconfigured = "No board is configured (neither \(environmentVariable) nor \(configuration))"
        let configure = "then run `sudo motionctl probe --write` (writes \(configuration)), or name a board file: "
            + "\(environmentVariable)=\(BoardLocations.boardsFolder)/mpu-9250.board (`sim-walker.board` for a simulated one)."
        switch probe() {
        case .noBuses:
            return .unavailable("\(unconfigured) and there is no I2C bus to probe (no /dev/i2c-*). Enable I2C (`sudo raspi-config`, "
                                + "Interface Options → I2C; or `dtparam=i2c_arm=on` in config.txt) and load i2c-dev (`sudo modprobe i2c-dev`), " + configure)
        case .failed(let bus, let problem):
            return .unavailable("\(unconfigured), and probing /dev/i2c-\(bus) failed: \(problem). "
                                + "Check the device's permissions (group motion, udev/README.md), " + configure)
        case .found(let probes):
            guard ProbedBoard.hasIMU(probes) else {
                let buses = probes.map { "i2c-\($0.bus)" }.joined(separator: ", ")
                let others = probes.flatMap { $0.findings.compactMap(\.driver) }
                let answered = others.isEmpty ? "" : " (only \(others.joined(separator: ", ")) answered)"
                return .unavailable("\(unconfigured) and no IMU answered on \(buses)\(answered): check the wiring and that I2C is enabled "
                                    + "(`sudo raspi-config`, Interface Options → I2C), run `motionctl probe` to see what answers, " + configure)
            }
            return .probed(boardFile: ProbedBoard.boardFile(name: "probed", probes: probes), buses: probes.map(\.bus))
        }
    }

    /// What probing the buses gave.
    public enum ProbeOutcome: Sendable, Equatable {
        /// No /dev/i2c-* exists.
        case noBuses
        /// A bus could not be opened or read: its number and why.
        case failed(bus: Int, problem: String)
        /// What answered on each bus.
        case found([BusProbe])
    }

    /// Probes every /dev/i2c-* (read-only: identity registers).
    public static func probeLinuxBuses() -> ProbeOutcome {
        let buses = ProbedBoard.linuxBuses()
        guard !buses.isEmpty else { return .noBuses }
        var probes: [BusProbe] = []
        for bus in buses {
            do {
                probes += try ProbedBoard.probe(buses: [bus])
            } catch {
                return .failed(bus: bus, problem: error.description)
            }
        }
        return .found(probes)
    }

    /// Whether a file exists at `path`.
    public static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The process's environment.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
