// swift-tools-version:6.1
// Benchmarks of OpenCoreMotion, a package of their own so that users of the library never
// pull benchmark dependencies (the package-benchmark layout). Run from this folder:
//   swift package --scratch-path ../.build-bench benchmark
import PackageDescription

let package = Package(
    name: "OpenCoreMotionBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "OpenCoreMotion", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "FixedPointMath",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FixedPoint", package: "OpenCoreMotion"),
            ],
            path: "Benchmarks/FixedPointMath",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SamplePipeline",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FixedPoint", package: "OpenCoreMotion"),
                .product(name: "MotionAlgorithms", package: "OpenCoreMotion"),
                .product(name: "MotionEngine", package: "OpenCoreMotion"),
                .product(name: "Chips", package: "OpenCoreMotion"),
            ],
            path: "Benchmarks/SamplePipeline",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
