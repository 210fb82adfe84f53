import Foundation

/// `motionctl calibrate magnetometer --plot DIR`: the samples and the fit as files
/// (`magnetometer_samples.csv`: x,y,z in µT, device axes, raw; `magnetometer_fit.json`: offset,
/// soft iron, coverage), drawn by the Python package's `opencoremotion.plot.calibration`.
struct MagnetometerPicture {
    var result: Calibrate.MagnetometerResult

    func draw(folder: String, python: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var csv = "x,y,z\n"
        for sample in result.samples { csv += "\(sample.0),\(sample.1),\(sample.2)\n" }
        try csv.write(toFile: folder + "/magnetometer_samples.csv", atomically: true, encoding: .utf8)
        let softIron = result.softIron.map { "[" + $0.map { "\($0)" }.joined(separator: ", ") + "]" } ?? "null"
        let json = """
            {"offset": [\(result.offset.map { "\($0)" }.joined(separator: ", "))], "soft_iron": \(softIron), \
            "uncertainty": \(result.uncertainty), "coverage": \(result.coverage)}

            """
        try json.write(toFile: folder + "/magnetometer_fit.json", atomically: true, encoding: .utf8)
        try PythonPlot.run(python: python, module: "opencoremotion.plot.calibration", arguments: [folder])
    }
}
