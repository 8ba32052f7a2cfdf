import AppStorePKI
import ArgumentParser
import ReceiptKit
import X509

/// The certificates `--anchor` options name (DER or PEM, several per file).
enum AnchorFiles {
    /// Reads every file; an unreadable or malformed one ends the command with its exit status and reason.
    /// `label` names the source in messages (`--anchor`, or `anchor` for a configuration file's).
    /// `json` also reports a failure as a JSON error object on standard output (``InputFailure/reported(subject:json:)``).
    static func certificates(_ paths: [String], label: String = "--anchor", json: Bool = false) throws -> [Certificate] {
        var certificates: [Certificate] = []
        for path in paths {
            let bytes: [UInt8]
            do {
                bytes = try ReceiptFile.contents(atPath: path)
            } catch {
                throw InputFailure(error).reported(subject: "\(label) \(path)", json: json)
            }
            do {
                certificates += try AppStoreTrustAnchors.certificates(fromDEROrPEM: bytes)
            } catch {
                throw InputFailure(error).reported(subject: "\(label) \(path)", json: json)
            }
        }
        return certificates
    }
}
