import AppStoreJWS
import ReceiptKit

/// One JWS read from a file or standard input: a compact JWS, or a notification request body around one.
struct JWSInput {
    /// The compact JWS text.
    let jws: [UInt8]
    /// The decoded (unverified) JWS.
    let compact: CompactJWS
    /// The kind of payload it carries.
    let kind: AppStoreSignedDataKind

    /// What went wrong reading an input: the file (exit 66) or its contents (exit 65).
    enum Failure: Error {
        case unreadable(ReceiptError)
        case malformed(JWSError)
        case unknownKind

        var status: ExitStatus {
            switch self {
            case .unreadable: return .unreadable
            case .malformed, .unknownKind: return .malformed
            }
        }

        var code: String {
            switch self {
            case .unreadable(let error): return error.code.rawValue
            case .malformed(let error): return error.code.rawValue
            case .unknownKind: return "unknown_payload_kind"
            }
        }

        var reason: String {
            switch self {
            case .unreadable(let error): return error.reason
            case .malformed(let error): return error.reason
            case .unknownKind:
                return "the payload's fields name no single kind (transaction, renewal info, AppTransaction, notification): pass --kind"
            }
        }
    }

    /// Reads and decodes `path` (`-` for standard input).
    init(path: String, kind: AppStoreSignedDataKind?, configuration: JWSDecodingConfiguration) throws(Failure) {
        let contents: [UInt8]
        do {
            // Read a little past the decoder's limit so an oversized input is reported as such, not as unreadable.
            contents = try ReceiptFile.contents(atPath: path, maximumSize: configuration.maximumLength + 64 * 1024)
        } catch {
            throw .unreadable(error)
        }
        try self.init(contents, kind: kind, configuration: configuration)
    }

    /// Decodes `contents`: a compact JWS, or a JSON object whose `signedPayload` is one.
    init(_ contents: [UInt8], kind: AppStoreSignedDataKind?, configuration: JWSDecodingConfiguration) throws(Failure) {
        let firstByte = contents.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        do {
            if firstByte == UInt8(ascii: "{") {
                self.jws = Array(try NotificationRequestBody(jsonEncoded: contents, configuration: configuration).signedPayload.utf8)
            } else {
                self.jws = contents
            }
            self.compact = try CompactJWS(self.jws, configuration: configuration)
        } catch {
            throw .malformed(error)
        }
        guard let found = kind ?? AppStoreSignedDataKind(detecting: self.compact.payload) else { throw .unknownKind }
        self.kind = found
    }
}
