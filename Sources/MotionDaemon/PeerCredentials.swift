internal import Glibc

/// Who is at the other end of a Unix socket, as the kernel says (SO_PEERCRED: fixed when the
/// peer connected, unforgeable), with the user's name and every group it belongs to.
package struct PeerCredentials: Sendable, Equatable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32
    /// The user's name (the uid as text if the passwd database does not know it).
    package var userName: String
    /// The primary and supplementary groups of the user (getgrouplist), as the passwd and group
    /// databases list them now: joining a group takes effect at the next connection.
    package var groups: [UInt32]

    package init(pid: Int32, uid: UInt32, gid: UInt32, userName: String, groups: [UInt32]) {
        (self.pid, self.uid, self.gid, self.userName, self.groups) = (pid, uid, gid, userName, groups)
    }

    /// The credentials of the peer of the connected socket `descriptor`; nil if the kernel
    /// cannot say (not a Unix socket).
    package static func of(socket descriptor: Int32) -> PeerCredentials? {
        // struct ucred (pid_t pid, uid_t uid, gid_t gid): Glibc's module hides it behind
        // _GNU_SOURCE, so it is read as its three 32-bit fields.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(12)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        let name = userName(of: credentials.uid)
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
                               userName: name ?? String(credentials.uid),
                               groups: name.map { groupList(user: $0, primary: credentials.gid) } ?? [credentials.gid])
    }

    static func userName(of uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// The gid of group `name`, nil if there is no such group.
    package static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The uid of user `name`, nil if there is no such user.
    package static func userID(named name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    static func groupList(user: String, primary: gid_t) -> [UInt32] {
        var count: Int32 = 64
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let capacity = count
            if getgrouplist(user, primary, &groups, &count) >= 0 { return Array(groups.prefix(Int(count))) }
            if count <= capacity { return [primary] }  // failed for another reason than room
        }
    }
}
