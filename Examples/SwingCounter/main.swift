// swing-counter: counts forehand and backhand swings from device motion (CMMotionManager), on a
// board file given as the argument (default: the system's board; `boards/sim-mpu-9250.board` for a simulated one), for 10 s.
import Foundation
import OpenCoreMotion
import Synchronization

let manager = CMMotionManager(board: CommandLine.arguments.dropFirst().first)   // a board file, else the system's board
guard manager.isDeviceMotionAvailable else {
    FileHandle.standardError.write(Data("swing-counter: device motion is not available: \(manager.boardError.map { "\($0)" } ?? "the board has no accelerometer and gyroscope")\n".utf8))
    exit(1)
}
manager.deviceMotionUpdateInterval = 0.01
// The handler runs on the queue's thread: the detector lives behind a lock.
let detector = Mutex(SwingDetector())
let queue = OperationQueue()
queue.maxConcurrentOperationCount = 1
manager.startDeviceMotionUpdates(to: queue) { motion, error in
    guard let motion else { print("error: \(error.map { "\($0)" } ?? "unknown")"); return }
    detector.withLock { detector in
        if let swing = detector.update(rotationRate: motion.rotationRate, gravity: motion.gravity, timestamp: motion.timestamp) {
            print(String(format: "%.2f s: %@ (forehands %d, backhands %d)", motion.timestamp, swing == .forehand ? "forehand" : "backhand",
                         detector.forehands, detector.backhands))
        }
    }
}
Thread.sleep(forTimeInterval: 10)
manager.stopDeviceMotionUpdates()
queue.waitUntilAllOperationsAreFinished()
detector.withLock { print("forehands \($0.forehands), backhands \($0.backhands)") }
