internal import Glibc
package import MotionDaemonProtocol

/// Who may use the daemon: root and the members of group `motion`, less what the
/// administrator's policy file denies or restricts.
///
/// The policy file (`motiond --policy FILE`, default /etc/opencoremotion/policy; a missing file
/// is an empty policy) has one rule a line, `#` starts a comment:
///
/// ```
/// deny alice 1002      # no data at all, even if in group motion (status "restricted")
/// live-only bob        # live streams, but no history queries (steps, activity, accelerometer)
/// allow carol          # as if in group motion (e.g. a test user, a kiosk account)
/// group motion         # the group that grants access (default motion)
/// ```
///
/// Users are names or numeric uids. `deny` wins over everything, root included; then root,
/// `allow` and the group grant access; `live-only` then takes the history away. The file is
/// read when the daemon starts: restart it to apply a change.
package struct AccessPolicy: Sendable, Equatable {
    package var denied: Set<UInt32> = []
    package var liveOnly: Set<UInt32> = []
    package var allowed: Set<UInt32> = []
    package var groupName = "motion"

    package init() {}

    /// What a peer may do.
    package struct Decision: Sendable, Equatable {
        package var status: WireAuthorization
        package var historyAllowed: Bool
        /// For an unauthorized peer: what to do about it.
        package var advice: String

        package init(status: WireAuthorization, historyAllowed: Bool, advice: String) {
            (self.status, self.historyAllowed, self.advice) = (status, historyAllowed, advice)
        }
    }

    package func decide(_ peer: PeerCredentials) -> Decision {
        if denied.contains(peer.uid) {
            return Decision(status: .restricted, historyAllowed: false,
                            advice: "The administrator's motiond policy denies user \(peer.userName) motion data; ask the administrator (the policy file's `deny` line).")
        }
        let groupID = PeerCredentials.groupID(named: groupName)
        let member = peer.uid == 0 || allowed.contains(peer.uid) || (groupID.map { peer.groups.contains($0) || peer.gid == $0 } ?? false)
        guard member else {
            let advice = groupID == nil
                ? "There is no group \(groupName) on this system: install motiond's sysusers.d file (or `groupadd --system \(groupName)`), then ask your administrator to add you to it."
                : "Ask your administrator to add you to group \(groupName) (sudo usermod -aG \(groupName) \(peer.userName)), then log in again."
            return Decision(status: .denied, historyAllowed: false, advice: advice)
        }
        return Decision(status: .authorized, historyAllowed: !liveOnly.contains(peer.uid), advice: "")
    }

    /// The policy in `path`; a missing file is the empty policy. Throws a message naming the
    /// file and line of a rule it does not understand.
    package static func load(path: String) throws(DaemonError) -> AccessPolicy {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return AccessPolicy() }
            throw DaemonError("\(path): cannot be read: \(String(cString: strerror(errno)))", advice: "Make it readable by motiond's user, or point --policy elsewhere.")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    package static func parse(_ text: String, path: String) throws(DaemonError) -> AccessPolicy {
        var policy = AccessPolicy()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let verb = words.first else { continue }
            let location = "\(path):\(index + 1)"
            let names = words.dropFirst()
            guard !names.isEmpty else {
                throw DaemonError("\(location): `\(verb)` needs at least one user name or uid", advice: "Write e.g. `deny alice 1002`.")
            }
            if verb == "group" {
                guard names.count == 1 else { throw DaemonError("\(location): `group` takes one group name", advice: "Write e.g. `group motion`.") }
                policy.groupName = names[names.startIndex]
                continue
            }
            var uids: [UInt32] = []
            for name in names {
                guard let uid = UInt32(name) ?? PeerCredentials.userID(named: name) else {
                    throw DaemonError("\(location): there is no user \(name)", advice: "Use an existing user name or a numeric uid.")
                }
                uids.append(uid)
            }
            switch verb {
            case "deny": policy.denied.formUnion(uids)
            case "live-only": policy.liveOnly.formUnion(uids)
            case "allow": policy.allowed.formUnion(uids)
            default:
                throw DaemonError("\(location): unknown rule `\(verb)`", advice: "The rules are deny, live-only, allow and group (see motiond --help).")
            }
        }
        return policy
    }
}

/// A failure that stops the daemon, for people: what happened and what to do.
package struct DaemonError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package var advice: String

    package init(_ message: String, advice: String) {
        self.message = message
        self.advice = advice
    }

    package var description: String { "\(message). \(advice)" }
}
