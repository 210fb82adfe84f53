import MotionAlgorithms
package import MotionEngine

/// Which sensors a board's chips give (the engine's chip registry), and the words for advice.
package enum BoardSensors {
    static func channels(of board: BoardDescription) -> Set<SensorChannel> { board.channels }

    /// "imu (mpu6050), magnetometer (ak8963)".
    package static func chipList(_ board: BoardDescription) -> String {
        board.chips.isEmpty ? "none" : board.chips.map { "\($0.label) (\($0.driver))" }.joined(separator: ", ")
    }

    /// The drivers that give `channel`, for advice: "ak8963, lis3mdl, lsm9ds1-magnetometer".
    static func drivers(giving channel: SensorChannel) -> String {
        BoardDescription.drivers(giving: channel).joined(separator: ", ")
    }
}
