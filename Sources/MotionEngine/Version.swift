/// OpenCoreMotion's version, one place for the Swift API, the C library (`OCM_VERSION_*` in
/// opencoremotion.h must match: the C test checks it) and `motionctl --version`.
public enum OpenCoreMotionVersion {
    public static let major = 0
    public static let minor = 1
    public static let patch = 0
    public static let string = "\(major).\(minor).\(patch)"
}
