import MotionDaemon
import MotionDaemonProtocol
import Testing

/// The policy file's rules and the decisions they make, and its errors naming file and line.
@Suite struct AccessPolicyTests {
    static func peer(uid: UInt32, groups: [UInt32] = [], name: String = "someone") -> PeerCredentials {
        PeerCredentials(pid: 1, uid: uid, gid: groups.first ?? 60_000, userName: name, groups: groups)
    }

    @Test func rulesDecideInOrderDenyThenGrantThenLiveOnly() throws {
        let policy = try AccessPolicy.parse("""
            # comment
            deny 1001 1002   # two users
            live-only 1003
            allow 1004 1003
            group root
            """, path: "/etc/opencoremotion/policy")
        #expect(policy.groupName == "root")
        #expect(policy.decide(Self.peer(uid: 1001)).status == .restricted)
        #expect(policy.decide(Self.peer(uid: 1001)).advice.contains("administrator"))
        #expect(policy.decide(Self.peer(uid: 1004)) == .init(status: .authorized, historyAllowed: true, advice: ""))
        #expect(policy.decide(Self.peer(uid: 1003)) == .init(status: .authorized, historyAllowed: false, advice: ""))
        // Membership of the granting group (root's gid 0 here), primary or supplementary.
        #expect(policy.decide(Self.peer(uid: 1005, groups: [100, 0])).status == .authorized)
        let outsider = policy.decide(Self.peer(uid: 1006, groups: [100], name: "eve"))
        #expect(outsider.status == .denied && outsider.advice.contains("usermod -aG root eve"), "\(outsider.advice)")
        // Root is granted unless denied by name.
        #expect(policy.decide(Self.peer(uid: 0)).status == .authorized)
        #expect(try AccessPolicy.parse("deny root", path: "p").decide(Self.peer(uid: 0)).status == .restricted)
    }

    @Test func aBadRuleIsAnErrorNamingFileAndLine() {
        let unknown = #expect(throws: DaemonError.self) { try AccessPolicy.parse("allow 5\n\nblock 7\n", path: "/etc/p") }
        #expect(unknown?.message == "/etc/p:3: unknown rule `block`")
        let noUser = #expect(throws: DaemonError.self) { try AccessPolicy.parse("deny no-such-user-xyz", path: "/etc/p") }
        #expect(noUser?.message == "/etc/p:1: there is no user no-such-user-xyz")
        let empty = #expect(throws: DaemonError.self) { try AccessPolicy.parse("deny", path: "/etc/p") }
        #expect(empty?.message.hasPrefix("/etc/p:1:") == true)
    }

    @Test func aMissingPolicyFileIsTheEmptyPolicy() throws {
        #expect(try AccessPolicy.load(path: "/nonexistent/policy") == AccessPolicy())
    }

    /// Wire seconds ↔ engine ns with the offset fixed at start; far dates saturate instead of trapping.
    @Test func theDaemonClockConvertsWithOneOffset() {
        let clock = DaemonClock(offsetNanoseconds: 1_700_000_000_000_000_000)
        #expect(clock.wireSeconds(2_500_000_000) == 1_700_000_002.5)
        #expect(clock.engineNanoseconds(wireSeconds: 1_700_000_002.5) == 2_500_000_000)
        #expect(DaemonClock.wallNanoseconds(wireSeconds: -.infinity) == .min)
        #expect(DaemonClock.wallNanoseconds(wireSeconds: 1e300) == .max)
        #expect(clock.engineNanoseconds(wireSeconds: -1e300) == .min)
    }
}
