import Foundation
import TestSupport
import Testing

/// Finds synchronous tests that wait (sleep, wait for a process, an operation queue or a
/// condition) outside a `.blocking` test or suite: on the cooperative pool (one thread per
/// core) two of them stall every async test in the process (issue 22, docs/testing.md). A
/// floor, not a proof: it reads the test's own body only, so a helper that blocks is not seen,
/// and an async test is never flagged (it may await; a blocking call inside one is reviewed).
struct BlockingScan {
    /// Calls that hold the calling thread until time passes or something else finishes.
    static var waits: Regex<Substring> { /\bThread\.sleep\(|\busleep\(|\bnanosleep\(|(?:^|[^\w.])sleep\(|waitUntilAllOperationsAreFinished\(|\.wait\(|\bwaitpid\(|\bwaitUntilExit\(|\beventually\((?:seconds|within):/ }

    struct Finding: Equatable, CustomStringConvertible {
        var file: String, line: Int, test: String, call: String
        var description: String { "\(file):\(line): \(test) calls \(call) without `.blocking`" }
    }

    /// The findings in one file's text; `blockingSuites` are the names of suites declared
    /// `.blocking` anywhere (an extension of one inherits its trait).
    static func findings(in text: String, file: String, blockingSuites: Set<String>) -> [Finding] {
        let lines = withoutMultilineStrings(text)
        var findings: [Finding] = []
        var scopes: [(depth: Int, blocking: Bool)] = []   // enclosing suites and extensions
        var depth = 0
        var testAttribute: String?   // the @Test line waiting for its func
        var pendingScope: Bool?      // a suite or extension declared, its brace not yet seen
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@Suite") { pendingScope = trimmed.contains(".blocking") }
            if trimmed.hasPrefix("extension "), let name = trimmed.firstMatch(of: /^extension\s+(\w+)/)?.1 {
                pendingScope = blockingSuites.contains(String(name))
            }
            if trimmed.hasPrefix("@Test") { testAttribute = trimmed }
            if let attribute = testAttribute, trimmed.contains("func "), let name = trimmed.firstMatch(of: /\bfunc\s+(\w+)/)?.1 {
                let body = Self.body(from: index, in: lines)
                let signature = body.prefix { $0 != "{" }
                let inBlockingScope = scopes.contains { $0.blocking }
                if !signature.contains(" async"), !attribute.contains(".blocking"), !inBlockingScope,
                   let call = body.firstMatch(of: waits) {
                    findings.append(Finding(file: file, line: index + 1, test: String(name), call: String(call.0)))
                }
                testAttribute = nil
            }
            for character in line {
                if character == "{" {
                    if let blocking = pendingScope { scopes.append((depth, blocking)); pendingScope = nil }
                    depth += 1
                } else if character == "}" {
                    depth -= 1
                    if let last = scopes.last, last.depth == depth { scopes.removeLast() }
                }
            }
            index += 1
        }
        return findings
    }

    /// The text's lines, those inside a multi-line string literal blanked (a test's own Swift
    /// source in a string, as the scan's test has, is not a test).
    static func withoutMultilineStrings(_ text: String) -> [String] {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let quotes = line.firstRange(of: "\"\"\"") else { return inside ? "" : String(line) }
            inside.toggle()
            // The code before an opening delimiter, or after a closing one, is kept.
            return inside ? String(line[..<quotes.lowerBound]) : String(line[quotes.upperBound...])
        }
    }

    /// The text from line `start` to the brace closing the first one opened there or after.
    static func body(from start: Int, in lines: [String]) -> String {
        var depth = 0, opened = false
        var text = ""
        for line in lines[start...] {
            text += line + "\n"
            for character in line {
                if character == "{" { depth += 1; opened = true } else if character == "}" { depth -= 1 }
            }
            if opened && depth == 0 { break }
        }
        return text
    }

    /// Names of suites whose `@Suite` carries `.blocking` (the type named on its line or the next).
    static func blockingSuites(in text: String) -> Set<String> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var names: Set<String> = []
        for (index, line) in lines.enumerated() where line.contains("@Suite(") && line.contains(".blocking") {
            let declaration = index + 1 < lines.count ? line + " " + lines[index + 1] : line
            if let name = declaration.firstMatch(of: /\b(?:struct|class|actor|enum)\s+(\w+)/)?.1 { names.insert(String(name)) }
        }
        return names
    }
}

struct BlockingTraitTests {
    /// Every synchronous test in the repository that waits is `.blocking`, or in a suite that is.
    /// (Reading ~250 files takes about a second: itself `.blocking`.)
    @Test(.blocking) func everyWaitingSynchronousTestIsBlocking() throws {
        let tests = URL(fileURLWithPath: ProjectPaths.root + "/Tests")
        let files = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.path.contains("/Tests/Fuzz/") }
        #expect(files.count > 100, "the scan found only \(files.count) test files under \(tests.path)")
        let texts = try files.map { ($0.path, try String(contentsOf: $0, encoding: .utf8)) }
        let suites = texts.reduce(into: Set<String>()) { $0.formUnion(BlockingScan.blockingSuites(in: $1.1)) }
        #expect(suites.count > 20)
        let findings = texts.flatMap { BlockingScan.findings(in: $0.1, file: $0.0, blockingSuites: suites) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    /// The scan itself: it flags a sleeping synchronous test, and passes one that is marked,
    /// one in a marked suite or its extension, and an async one.
    @Test func theScanFlagsOnlyUnmarkedWaits() {
        let source = """
            @Suite struct Plain {
                @Test func sleeps() {
                    Thread.sleep(forTimeInterval: 1)
                }
                @Test(.blocking) func marked() { usleep(300_000) }
                @Test func awaits() async throws { try await Task.sleep(for: .seconds(1)) }
                @Test func computes() { _ = (0..<10).reduce(0, +) }
            }
            @Suite(.serialized, .blocking) struct Marked {
                @Test func waits() { process.waitUntilExit() }
            }
            extension Marked {
                @Test func alsoWaits() { queue.waitUntilAllOperationsAreFinished() }
            }
            extension Plain {
                @Test func pollsWithoutTheTrait() {
                    #expect(eventually(seconds: 5) { true })
                }
            }
            """
        let suites = BlockingScan.blockingSuites(in: source)
        #expect(suites == ["Marked"])
        let findings = BlockingScan.findings(in: source, file: "x.swift", blockingSuites: suites)
        #expect(findings.map(\.test) == ["sleeps", "pollsWithoutTheTrait"], "\(findings)")
        #expect(findings.first?.line == 2)
    }
}
