// ns per operation and heap allocations of the fixed-point primitives. Each benchmark runs its
// operation over 1024 precomputed inputs per iteration (scaledIterations), so the table's
// figures are per batch of 1024: divide ns by 1024 for one operation (README, "Benchmarks").
import Benchmark
import FixedPoint

let batch = 1024

/// Inputs spread over each function's domain, fixed (a linear congruential sequence) so runs
/// compare.
struct Inputs {
    var q16 = [Q16_16](), q30 = [Q2_30](), vectors = [Vector3](), quaternions = [Quaternion]()

    init() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int32(truncatingIfNeeded: state >> 32)
        }
        for _ in 0..<batch {
            q16.append(Q16_16(rawValue: next() >> 8))  // ±128
            q30.append(Q2_30(rawValue: next() >> 1))   // ±1
            vectors.append(Vector3(x: Q16_16(rawValue: next() >> 10), y: Q16_16(rawValue: next() >> 10), z: Q16_16(rawValue: next() >> 10)))
            quaternions.append(Quaternion(w: Q2_30(rawValue: next() >> 2), x: Q2_30(rawValue: next() >> 2),
                                          y: Q2_30(rawValue: next() >> 2), z: Q2_30(rawValue: next() >> 2)).normalized)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: .kilo(10),
        thresholds: [.mallocCountTotal: .init(absolute: [.p100: 0])]  // no allocation, ever
    )
    let inputs = Inputs()


    Benchmark("Q16_16 multiply ×1024") { benchmark in
        for _ in benchmark.scaledIterations {
            var accumulator = Q16_16.one
            for value in inputs.q16 { accumulator = accumulator * value + Q16_16.one }
            blackHole(accumulator)
        }
    }
    Benchmark("Q16_16 saturating add ×1024") { benchmark in
        for _ in benchmark.scaledIterations {
            var accumulator = Q16_16.zero
            for value in inputs.q16 { accumulator = accumulator + value }
            blackHole(accumulator)
        }
    }
    Benchmark("Q16_16 squareRoot ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for value in inputs.q16 { blackHole(value.squareRoot) } }
    }
    Benchmark("Q16_16 reciprocalSquareRoot ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for value in inputs.q16 { blackHole(value.reciprocalSquareRoot) } }
    }
    Benchmark("arctangent2 ×1024") { benchmark in
        for _ in benchmark.scaledIterations {
            for index in 0..<batch { blackHole(arctangent2(y: inputs.q16[index], x: inputs.q16[batch - 1 - index])) }
        }
    }
    Benchmark("arcsine ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for value in inputs.q30 { blackHole(arcsine(value)) } }
    }
    Benchmark("sineCosine ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for value in inputs.q16 { blackHole(sineCosine(value)) } }
    }
    Benchmark("Vector3 length ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for vector in inputs.vectors { blackHole(vector.length) } }
    }
    Benchmark("Quaternion multiply ×1024") { benchmark in
        for _ in benchmark.scaledIterations {
            var accumulator = Quaternion.identity
            for q in inputs.quaternions { accumulator = accumulator * q }
            blackHole(accumulator)
        }
    }
    Benchmark("Quaternion normalized ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for q in inputs.quaternions { blackHole(q.normalized) } }
    }
    Benchmark("Quaternion rotate vector ×1024") { benchmark in
        for _ in benchmark.scaledIterations {
            for index in 0..<batch { blackHole(inputs.quaternions[index].rotate(inputs.vectors[index])) }
        }
    }
    Benchmark("Quaternion eulerAngles ×1024") { benchmark in
        for _ in benchmark.scaledIterations { for q in inputs.quaternions { blackHole(q.eulerAngles) } }
    }
}
