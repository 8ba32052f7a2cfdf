import Foundation
import Testing
import _ReceiptKitShared

/// The version string and the changelog say the same: a `-dev` build's changelog starts with `[Unreleased]`, a
/// release's with its own number.
@Suite("Version")
struct VersionTests {
    static let changelog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CHANGELOG.md")

    @Test("the version is semantic (MAJOR.MINOR.PATCH, optionally -dev)")
    func semantic() {
        let version = ReceiptKitVersion.string
        let core = version.hasSuffix("-dev") ? String(version.dropLast(4)) : version
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil }, "\(version)")
    }

    @Test("CHANGELOG.md's first release heading matches the version")
    func changelogAgrees() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## [") })
        let version = ReceiptKitVersion.string
        let expected = version.hasSuffix("-dev") ? "## [Unreleased]" : "## [\(version)]"
        #expect(heading.hasPrefix(expected), "\(heading)")
    }
}
