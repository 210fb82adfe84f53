/// Where the repository's own files are, found from this source file's location so that tests
/// work from any working directory and need no resource bundles (no Foundation in the helpers).
public enum ProjectPaths {
    /// The repository root (the folder holding Package.swift), without a trailing slash.
    public static let root: String = {
        // This file is <root>/Tests/TestSupport/ProjectPaths.swift.
        var path = "\(#filePath)"
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            path = String(path[..<slash])
        }
        return path
    }()

    /// The bundled real recordings (Tests/Recordings, see its README.md for sources and licenses).
    public static func recording(_ name: String) -> String { "\(root)/Tests/Recordings/\(name)" }

    /// The shared data sets beside the project (../shared/datasets), present in CI.
    public static let sharedDatasets: String = "\(root)/../shared/datasets"
}
