extension BoardDescription {
    /// The description with each chip's own calibration profile from the board's calibration
    /// file (`BoardCalibration.bno055Profiles`, by label) for its BNO055s; other chips unchanged.
    public func withStoredProfiles(_ calibration: BoardCalibration?) -> BoardDescription {
        var description = self
        for index in description.chips.indices where description.chips[index].driver == "bno055" {
            description.chips[index].storedProfile = calibration?.bno055Profiles[description.chips[index].label]
        }
        return description
    }
}
