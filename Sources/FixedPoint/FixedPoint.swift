// FixedPoint: the number formats of OpenCoreMotion's pipeline.
//
// | type     | raw   | fraction bits | 1 LSB              | range                  | holds                                   |
// |----------|-------|---------------|--------------------|------------------------|-----------------------------------------|
// | Q16_16   | Int32 | 16            | 2⁻¹⁶ ≈ 1.53 × 10⁻⁵  | [−32768, 32768)        | m/s², rad/s, µT, °C (sensor values)     |
// | Q2_30    | Int32 | 30            | 2⁻³⁰ ≈ 9.3 × 10⁻¹⁰  | [−2, 2)                | unit quaternions, rotation matrices     |
// | Q24_8    | Int32 | 8             | 2⁻⁸ = 0.0039       | [−8 388 608, 8 388 608) | pressure in Pa (the BMP280's format)    |
//
// Everything is integer arithmetic with the rounding named at each step, so the same input
// gives bit-identical output on every platform, 32- or 64-bit. No Foundation, no Glibc, no
// allocation, no existentials: this module also builds as Embedded Swift.
