import MotionManagerCore

/// Core Motion's authorization states for motion data (pedometer and activity), with its raw
/// values. Linux has no per-app consent. When motiond runs, it decides per user from the peer's
/// credentials: `.denied` outside group `motion` (join it), `.restricted` by the administrator's
/// policy file, else `.authorized`. In-process, access is the device files' permissions (group
/// `motion`, udev/README.md), a board the process cannot open is reported as an error when
/// updates start, and the answer is `.authorized`.
public enum CMAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
}

extension CMAuthorizationStatus {
    /// What motiond grants this user when it runs; `.authorized` in-process.
    static var ofSystemBoard: CMAuthorizationStatus { CMAuthorizationStatus(rawValue: DaemonBackend.systemAuthorization) ?? .notDetermined }
}
