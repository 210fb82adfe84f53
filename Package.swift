// swift-tools-version:6.1
// OpenCoreMotion: Core Motion for Linux boards.
//
// Modules depend one way (see README.md, "Layout"):
//   FixedPoint → MotionAlgorithms → (hardware, recordings) → MotionEngine → APIs and tools.
// FixedPoint and MotionAlgorithms use neither Foundation nor Glibc and also build as
// Embedded Swift (tools/check-embedded.sh).
import PackageDescription

let strictSwift6: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenCoreMotion",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "motionctl", targets: ["motionctl"]),
        // The C library: `libopencoremotion.so` + `opencoremotion.h` (tools/install-c-library.sh).
        .library(name: "opencoremotion", type: .dynamic, targets: ["OpenCoreMotionC"]),
        // For the benchmark package (Benchmarks/) and later the Swift API's users.
        .library(name: "FixedPoint", targets: ["FixedPoint"]),
        .library(name: "MotionAlgorithms", targets: ["MotionAlgorithms"]),
        .library(name: "MotionEngine", targets: ["MotionEngine"]),
        .library(name: "Chips", targets: ["Chips"]),
        // Core Motion's API for Swift: CMMotionManager and its data types, driving a board live.
        .library(name: "OpenCoreMotion", targets: ["OpenCoreMotion"]),
        .library(name: "Geomagnetism", targets: ["Geomagnetism"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Debian 12 system libraries (apt: libi2c-dev libiio-dev libgpiod-dev zlib1g-dev).
        .systemLibrary(name: "CLibI2C", path: "Sources/SystemLibraries/CLibI2C"),
        .systemLibrary(name: "CLibIIO", path: "Sources/SystemLibraries/CLibIIO", pkgConfig: "libiio",
                       providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CLibGPIOD", path: "Sources/SystemLibraries/CLibGPIOD", pkgConfig: "libgpiod",
                       providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/SystemLibraries/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // Eclipse Mosquitto's MQTT client library (apt: libmosquitto-dev), for MotionMQTT.
        .systemLibrary(name: "CMosquitto", path: "Sources/SystemLibraries/CMosquitto", pkgConfig: "libmosquitto",
                       providers: [.apt(["libmosquitto-dev"])]),

        .target(name: "FixedPoint", swiftSettings: strictSwift6),
        // Synchronization.Mutex as ThreadSanitizer sees it also when contended (issue 22, Lock.swift).
        .target(name: "Locking", swiftSettings: strictSwift6),
        .target(name: "MotionAlgorithms", dependencies: ["FixedPoint"], swiftSettings: strictSwift6),
        // The World Magnetic Model (declination for true north); standard library only, like FixedPoint.
        .target(name: "Geomagnetism", swiftSettings: strictSwift6),
        .target(name: "Recordings", dependencies: ["CZlib"], swiftSettings: strictSwift6),
        // Hardware: the bus protocols drivers talk to; the Linux transports and the chip
        // drivers + emulators implement or use them and never import each other.
        .target(name: "SensorBus", swiftSettings: strictSwift6),
        .target(name: "LinuxI2C", dependencies: ["SensorBus", "CLibI2C"], swiftSettings: strictSwift6),
        .target(name: "LinuxIIO", dependencies: ["CLibIIO"], swiftSettings: strictSwift6),
        .target(name: "LinuxGPIO", dependencies: ["CLibGPIOD"], swiftSettings: strictSwift6),
        // A UART through POSIX termios (Glibc only): the BNO08x's UART-RVC stream.
        .target(name: "LinuxSerial", dependencies: ["SensorBus"], swiftSettings: strictSwift6),
        .target(name: "Chips", dependencies: ["SensorBus", "FixedPoint", "MotionAlgorithms"], swiftSettings: strictSwift6),
        .target(name: "MotionEngine", dependencies: ["FixedPoint", "MotionAlgorithms", "Recordings", "SensorBus", "Chips", "LinuxI2C", "LinuxIIO", "LinuxGPIO", "LinuxSerial", "Geomagnetism"],
                swiftSettings: strictSwift6),
        // The motion manager's engine-facing core, shared by the Swift and C APIs: one engine thread
        // per board, subscriptions at their intervals, pull storage, start/stop. No Foundation
        // (standard library, Synchronization, Glibc), so the C library does not link it.
        .target(name: "MotionManagerCore", dependencies: ["Locking", "MotionEngine", "MotionAlgorithms", "FixedPoint", "MotionDaemonClient", "MotionDaemonProtocol", "Geomagnetism"],
                swiftSettings: strictSwift6),
        // The Swift API: Core Motion's CMMotionManager and data types on a live board (Foundation
        // for OperationQueue and Core Motion's error protocols), wrapping MotionManagerCore.
        .target(name: "OpenCoreMotion", dependencies: ["Locking", "MotionManagerCore", "MotionEngine", "MotionAlgorithms", "FixedPoint", "MotionDaemonProtocol", "MotionMQTT"],
                swiftSettings: strictSwift6),
        // The C API: opencoremotion.h (COpenCoreMotion) implemented in Swift with @c @implementation,
        // so the compiler checks every function against the header.
        .target(name: "COpenCoreMotion"),
        .target(name: "OpenCoreMotionC", dependencies: ["Locking", "COpenCoreMotion", "MotionEngine", "Recordings", "MotionManagerCore", "MotionMQTT"],
                swiftSettings: strictSwift6),
        .executableTarget(
            name: "motionctl",
            dependencies: [
                "Locking", "MotionEngine", "Recordings", "Chips", "LinuxI2C", "LinuxIIO", "Geomagnetism", "MotionDaemon", "MotionDaemonProtocol", "MotionDaemonClient", "MotionMQTT",
                "MotionManagerCore",  // bench-batched
                "OpenCoreMotion",  // timing --api
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "tools/motionctl",
            swiftSettings: strictSwift6),

        // Level 2: runs inside a QEMU guest on Debian's kernel (tools/test-kernel-qemu.sh). No
        // Foundation, so the -static-stdlib binary stays small.
        .executableTarget(name: "ocm-kernel-tests", dependencies: ["LinuxIIO", "LinuxI2C", "LinuxGPIO", "SensorBus"],
                          path: "Tests/KernelLevel", swiftSettings: strictSwift6),
        // Two examples from Core Motion's talks, ported to the Swift API (Examples/).
        .executableTarget(name: "SwingCounter", dependencies: ["OpenCoreMotion"], path: "Examples/SwingCounter", swiftSettings: strictSwift6),
        .executableTarget(name: "TiltSteering", dependencies: ["OpenCoreMotion"], path: "Examples/TiltSteering", swiftSettings: strictSwift6),
        .testTarget(name: "ExamplesTests", dependencies: ["SwingCounter", "TiltSteering", "OpenCoreMotion"], swiftSettings: strictSwift6),
        .target(name: "TestSupport", dependencies: ["Locking"], path: "Tests/TestSupport", swiftSettings: strictSwift6),
        .testTarget(name: "LockingTests", dependencies: ["Locking", "TestSupport"], swiftSettings: strictSwift6),
        .testTarget(name: "FixedPointTests", dependencies: ["FixedPoint", "TestSupport"],
                    swiftSettings: strictSwift6),
        .testTarget(name: "MotionAlgorithmsTests", dependencies: ["MotionAlgorithms", "TestSupport"],
                    swiftSettings: strictSwift6),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "TestSupport"],
                    swiftSettings: strictSwift6),
        .testTarget(name: "MotionEngineTests", dependencies: ["MotionEngine", "TestSupport", "COpenCoreMotion"],
                    swiftSettings: strictSwift6),
        .testTarget(name: "ChipsTests", dependencies: ["Chips", "SensorBus", "FixedPoint", "MotionAlgorithms"], swiftSettings: strictSwift6),
        .testTarget(name: "LinuxI2CTests", dependencies: ["Locking", "LinuxI2C", "SensorBus", "CLibI2C", "Chips"],
                    swiftSettings: strictSwift6),
        .testTarget(name: "LinuxIIOTests", dependencies: ["LinuxIIO"], swiftSettings: strictSwift6),
        .testTarget(name: "LinuxGPIOTests", dependencies: ["LinuxGPIO"], swiftSettings: strictSwift6),
        .testTarget(name: "LinuxSerialTests", dependencies: ["LinuxSerial", "SensorBus", "TestSupport"], swiftSettings: strictSwift6),
        .testTarget(name: "GeomagnetismTests", dependencies: ["Geomagnetism", "TestSupport"], swiftSettings: strictSwift6),
        .testTarget(name: "SystemLibrariesTests", dependencies: ["CLibI2C", "CLibIIO", "CLibGPIOD", "CZlib"],
                    swiftSettings: strictSwift6),
        .testTarget(name: "OpenCoreMotionTests", dependencies: ["Locking", "OpenCoreMotion", "TestSupport"],
                    swiftSettings: strictSwift6),

        // History on disk for the daemon (issue 9): pedometer, activity and the sensor recorder's
        // accelerometer in CRC-checked append-only logs (zlib for the CRC-32). The crash writer is
        // the child process MotionHistoryTests kill -9s.
        .target(name: "MotionHistory", dependencies: ["MotionEngine", "MotionAlgorithms", "CZlib"], swiftSettings: strictSwift6),
        .executableTarget(name: "history-crash-writer", dependencies: ["MotionHistory"], path: "tools/history-crash-writer",
                          swiftSettings: strictSwift6),
        .testTarget(name: "MotionHistoryTests",
                    dependencies: ["MotionHistory", "MotionEngine", "MotionAlgorithms", "Recordings", "TestSupport", "history-crash-writer"],
                    swiftSettings: strictSwift6),

        // motiond's wire protocol (issue 9, PROTOCOL.md): frames, messages, a frame reader;
        // standard library only, for the daemon and every client.
        .target(name: "MotionDaemonProtocol", exclude: ["PROTOCOL.md"], swiftSettings: strictSwift6),
        .testTarget(name: "MotionDaemonProtocolTests", dependencies: ["MotionDaemonProtocol"], swiftSettings: strictSwift6),
        // motiond (issue 9): one board run from start to exit, its history kept, clients served
        // over a Unix socket. The library is the daemon; tools/motiond its command line.
        // The client side (issue 9): a connection to motiond that reconnects and re-subscribes by
        // itself after a daemon restart. Standard library, Glibc and Synchronization only.
        .target(name: "MotionDaemonClient", dependencies: ["Locking", "MotionDaemonProtocol"], swiftSettings: strictSwift6),
        .target(name: "MotionDaemon", dependencies: ["Locking", "MotionDaemonProtocol", "MotionHistory", "MotionManagerCore", "MotionEngine", "MotionAlgorithms"],
                swiftSettings: strictSwift6),
        .executableTarget(name: "motiond", dependencies: ["MotionDaemon", "MotionMQTT", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "tools/motiond", exclude: ["motiond.service", "motiond-sysusers.conf", "motiond-tmpfiles.conf", "policy.example"],
                          swiftSettings: strictSwift6),
        // The client of tools/soak-motiond.sh: streams at the highest rates, counts what is lost.
        .executableTarget(name: "motiond-soak", dependencies: ["Locking", "MotionDaemon", "MotionDaemonProtocol"], path: "tools/motiond-soak",
                          swiftSettings: strictSwift6),
        // The client and the APIs through the real motiond (restarts, history, authorization, recorder).
        .testTarget(name: "MotionDaemonClientTests", dependencies: ["Locking", "MotionDaemonClient", "MotionDaemonProtocol", "OpenCoreMotion", "motiond", "motionctl", "TestSupport"],
                    swiftSettings: strictSwift6),
        // Starts the real motiond (and motionctl) on temporary sockets and history folders.
        .testTarget(name: "MotionDaemonTests", dependencies: ["Locking", "MotionDaemon", "MotionDaemonProtocol", "motiond", "motionctl", "TestSupport"],
                    swiftSettings: strictSwift6),
        // Fleets through MQTT (issue 10): what a board computes, published to a broker through
        // libmosquitto (binary or JSON payloads, PAYLOADS.md), and the subscriber that decodes it.
        // The tests start a real mosquitto broker and kill -9 motionctl publishers.
        .target(name: "MotionMQTT", dependencies: ["Locking", "CMosquitto", "MotionManagerCore", "MotionEngine", "MotionAlgorithms", "FixedPoint"],
                exclude: ["PAYLOADS.md"], swiftSettings: strictSwift6),
        .testTarget(name: "MotionMQTTTests", dependencies: ["Locking", "MotionMQTT", "OpenCoreMotion", "OpenCoreMotionC", "COpenCoreMotion", "motionctl", "TestSupport"], swiftSettings: strictSwift6),
    ]
)
