import _ReceiptKitShared

/// SHA-256 fingerprints of the certificates App Store verification can trust without being handed them.
///
/// Every App Store receipt and signed JWS carries its root certificate itself. Nothing here ships or loads a copy:
/// the signed data's own copy is accepted as a trust anchor only when its SHA-256 equals a pinned fingerprint below
/// (see ``PinnedRoot``).
public enum PinnedCertificates {
    /// Apple Inc. Root CA (2006–2035), which anchors every App Store receipt chain.
    public static let appleIncRootCA = Fingerprint(
        hex: "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024"
    )
    /// Apple Root CA - G3 (ECDSA P-384, 2014–2039), which anchors every App Store signed JWS (StoreKit 2
    /// transactions, renewal info, `AppTransaction`, App Store Server Notifications V2).
    public static let appleRootCAG3 = Fingerprint(
        hex: "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"
    )
    /// The self-signed "StoreKit" certificate with which Xcode's StoreKit testing signs local receipts (2020–2040).
    /// Trusted only when a verifier's policy opts in (receipts: `ReceiptValidationPolicy.allowsXcodeReceipts`).
    public static let xcodeStoreKitTesting = Fingerprint(
        hex: "ff0ba36e721d2db741d2aa11e6112ef78bf7131b46c7f035b00891d045c864fe"
    )

    /// A SHA-256 certificate fingerprint.
    public struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
        /// The 32 digest bytes.
        public let bytes: [UInt8]

        /// Creates a fingerprint from 32 digest bytes.
        public init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// Creates a fingerprint from 64 hex digits; invalid digits read as zero (used only for constants above).
        init(hex: String) {
            var bytes: [UInt8] = []
            var high: UInt8?
            for character in hex.utf8 {
                let nibble: UInt8
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
                default: nibble = 0
                }
                if let value = high {
                    bytes.append(value << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
            self.bytes = bytes
        }

        public var description: String {
            HexDigits.string(self.bytes)
        }
    }
}
