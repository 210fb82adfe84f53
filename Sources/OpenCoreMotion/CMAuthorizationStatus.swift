/// Core Motion's authorization states for motion data (pedometer and activity), with its raw
/// values. Linux has no per-app consent: access to the sensors is the device files' permissions
/// (group `motion`, udev/README.md), and a board the process cannot open is reported as an
/// error when updates start. So OpenCoreMotion always answers `.authorized`.
public enum CMAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
}
