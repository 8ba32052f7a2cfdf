public import struct Foundation.UUID
import _ReceiptKitShared

/// The device identity Apple hashed into a receipt (attribute 5): SHA-1(identifier ‖ opaque value ‖ bundle id).
///
/// On iOS it is the 16 bytes of `UIDevice.identifierForVendor`; on macOS the 6 bytes of the primary network
/// interface's MAC address. ReceiptKit never reads it from the machine it runs on unless asked
/// (`DeviceIdentifier.current` on Apple platforms): a server is handed it by the app.
public struct DeviceIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The identifier bytes, exactly as hashed.
    public let bytes: [UInt8]

    /// An identifier made of arbitrary bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// An iOS `identifierForVendor`: the UUID's 16 bytes.
    public init(uuid: UUID) {
        let u = uuid.uuid
        self.bytes = [
            u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15,
        ]
    }

    /// Parses the textual forms the CLI accepts: a UUID (`956328D9-CC6A-47F4-BE40-6953FB0AB6C7`), a MAC address
    /// (`aa:bb:cc:dd:ee:ff` or with `-`), `hex:<digits>` or `base64:<text>`.
    /// - Throws: ``ReceiptError`` with ``ReceiptError/Code/invalidDeviceIdentifier``.
    public init(parsing text: String) throws(ReceiptError) {
        if text.hasPrefix("hex:") {
            guard let bytes = HexDigits.bytes(text.dropFirst(4)), !bytes.isEmpty else {
                throw ReceiptError(.invalidDeviceIdentifier, "'\(text)' is not hex")
            }
            self.init(bytes: bytes)
        } else if text.hasPrefix("base64:") {
            guard let bytes = Base64Decoder.bytes(of: String(text.dropFirst(7))), !bytes.isEmpty else {
                throw ReceiptError(.invalidDeviceIdentifier, "'\(text)' is not base64")
            }
            self.init(bytes: bytes)
        } else if let uuid = UUID(uuidString: text) {
            self.init(uuid: uuid)
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).count == 6
                ? text.split(separator: ":", omittingEmptySubsequences: false)
                : text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }),
                let bytes = HexDigits.bytes(parts.joined())
            else {
                throw ReceiptError(
                    .invalidDeviceIdentifier,
                    "'\(text)' is not a UUID, a MAC address, hex:… or base64:…"
                )
            }
            self.init(bytes: bytes)
        }
    }

    public var description: String {
        HexDigits.string(self.bytes)
    }
}
