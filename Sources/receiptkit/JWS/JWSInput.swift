import struct Foundation.Date
import AppStoreJWS
import ReceiptKit

/// One JWS read from a file or standard input: a compact JWS, or a notification request body around one.
struct JWSInput {
    /// The compact JWS text.
    let jws: [UInt8]
    /// The decoded (unverified) JWS.
    let compact: CompactJWS
    /// The kind of payload it carries (`.unknown` when its fields name none, or several).
    let kind: AppStoreSignedDataKind

    /// Reads and decodes `path` (`-` for standard input).
    init(path: String, kind: AppStoreSignedDataKind?, configuration: JWSDecodingConfiguration) throws(InputFailure) {
        let contents: [UInt8]
        do {
            // Read a little past the decoder's limit so an oversized input is reported as such, not as unreadable.
            contents = try ReceiptFile.contents(atPath: path, maximumSize: configuration.maximumLength + 64 * 1024)
        } catch {
            throw InputFailure(error)
        }
        try self.init(contents, kind: kind, configuration: configuration)
    }

    /// Decodes `contents`: a compact JWS, or a JSON object whose `signedPayload` is one.
    init(_ contents: [UInt8], kind: AppStoreSignedDataKind?, configuration: JWSDecodingConfiguration) throws(InputFailure) {
        do {
            self.jws = try NotificationRequestBody.compactJWS(in: contents, configuration: configuration)
            self.compact = try CompactJWS(self.jws, configuration: configuration)
            self.kind = kind ?? AppStoreSignedDataKind(detecting: self.compact.payload)
        } catch {
            throw InputFailure(error)
        }
    }

    /// Verifies the input as its kind.
    func verify(with verifier: JWSVerifier, now: Date) async throws(InputFailure) -> JWSVerdict {
        do {
            return try await verifier.verify(self.jws, kind: self.kind, now: now)
        } catch {
            throw InputFailure(error)
        }
    }
}
