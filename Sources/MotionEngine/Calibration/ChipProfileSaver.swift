/// Keeps what a self-calibrating chip (the BNO055) learned in the board's calibration file, as
/// `bno055-profile LABEL = …` beside the engine's own keys (which it leaves as they are), so that
/// the next start gives the chip its profile back (`BoardDescription.withStoredProfiles`).
/// Writes only when the profile differs from the stored one, atomically (`BoardCalibration.save`).
public final class ChipProfileSaver {
    public let path: String
    /// The board file's name, for the file's header.
    public let board: String
    public private(set) var saves = 0
    /// The last save that failed (the file stays as it was), nil when none did.
    public private(set) var failure: EngineError?

    public init(path: String, board: String) {
        self.path = path
        self.board = board
    }

    public func save(label: String, values: [Int16]) {
        do throws(EngineError) {
            var stored = try BoardCalibration.load(path: path) ?? BoardCalibration()
            guard stored.bno055Profiles[label] != values else { return }
            stored.bno055Profiles[label] = values
            try stored.save(path: path, board: board)
            saves += 1
        } catch {
            failure = error
        }
    }
}
