public import struct Foundation.UUID

/// The device identity Apple hashed into a receipt (attribute 5): SHA-1(identifier ‖ opaque value ‖ bundle id).
///
/// On iOS it is the 16 bytes of `UIDevice.identifierForVendor`; on macOS the 6 bytes of the primary network
/// interface's MAC address. ReceiptKit never reads it from the machine it runs on unless asked
/// (``DeviceIdentifier/current`` on Apple platforms): a server is handed it by the app.
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
            guard let bytes = Self.hexBytes(text.dropFirst(4)), !bytes.isEmpty else {
                throw ReceiptError(.invalidDeviceIdentifier, "'\(text)' is not hex")
            }
            self.init(bytes: bytes)
        } else if text.hasPrefix("base64:") {
            guard let data = Base64.decode(String(text.dropFirst(7))), !data.isEmpty else {
                throw ReceiptError(.invalidDeviceIdentifier, "'\(text)' is not base64")
            }
            self.init(bytes: data)
        } else if let uuid = UUID(uuidString: text) {
            self.init(uuid: uuid)
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).count == 6
                ? text.split(separator: ":", omittingEmptySubsequences: false)
                : text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }),
                let bytes = Self.hexBytes(parts.joined()[...])
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
        self.bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private static func hexBytes(_ text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
