// tilt-steering: steering and throttle from gravity (CMMotionManager device motion), printed 5
// times a second for 5 s, on a board file given as the argument (default: the system's board; `boards/sim-mpu-9250.board` for a simulated one).
import Foundation
import OpenCoreMotion

let manager = CMMotionManager(board: CommandLine.arguments.dropFirst().first)   // a board file, else the system's board
guard manager.isDeviceMotionAvailable else {
    FileHandle.standardError.write(Data("tilt-steering: device motion is not available: \(manager.boardError.map { "\($0)" } ?? "the board has no accelerometer and gyroscope")\n".utf8))
    exit(1)
}
manager.deviceMotionUpdateInterval = 0.2
let steering = TiltSteering()
let queue = OperationQueue()
queue.maxConcurrentOperationCount = 1
manager.startDeviceMotionUpdates(to: queue) { motion, _ in
    guard let motion else { return }
    let (wheel, throttle) = steering.controls(gravity: motion.gravity)
    print(String(format: "%.1f s: steering %+.2f, throttle %+.2f", motion.timestamp, wheel, throttle))
}
Thread.sleep(forTimeInterval: 5)
manager.stopDeviceMotionUpdates()
queue.waitUntilAllOperationsAreFinished()
