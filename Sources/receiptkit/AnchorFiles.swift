import AppStorePKI
import ArgumentParser
import ReceiptKit
import X509

/// The certificates `--anchor` options name (DER or PEM, several per file).
enum AnchorFiles {
    /// Reads every file; an unreadable or malformed one ends the command with its exit status and reason.
    /// `label` names the source in messages (`--anchor`, or `anchor` for a configuration file's).
    static func certificates(_ paths: [String], label: String = "--anchor") throws -> [Certificate] {
        var certificates: [Certificate] = []
        for path in paths {
            let bytes: [UInt8]
            do { bytes = try ReceiptFile.contents(atPath: path) } catch { throw InputFailure(error).reported(subject: "\(label) \(path)") }
            do {
                certificates += try AppStoreTrustAnchors.certificates(fromDEROrPEM: bytes)
            } catch {
                throw InputFailure(error).reported(subject: "\(label) \(path)")
            }
        }
        return certificates
    }
}
