import Foundation
import ReceiptKitTesting

/// The `openssl` command, used as an independent CMS implementation.
package enum OpenSSL {
    package static let path: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    package static let skipMessage = "openssl is not installed: the independent CMS check is skipped (.ci/run installs it)"

    /// Runs `openssl cms -verify` on DER `receipt` against the PEM `anchor`; returns the exit status and what it
    /// printed. It waits off Swift's cooperative threads (``ChildProcess``): the differential test runs it hundreds
    /// of times while every other suite runs.
    package static func verify(receipt: [UInt8], anchorPEM: String) async throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("receipt.der")
        let anchor = directory.appendingPathComponent("anchor.pem")
        try Data(receipt).write(to: input)
        try Data(anchorPEM.utf8).write(to: anchor)
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: try path ?? { throw CocoaError(.fileNoSuchFile) }()),
            [
                "cms", "-verify", "-inform", "DER", "-binary", "-in", input.path, "-CAfile", anchor.path,
                "-purpose", "any", "-out", "/dev/null",
            ])
        return (output.status, output.text)
    }
}
