/// One raw payload attribute: `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
///
/// ReceiptKit interprets the attribute types Apple documents into typed properties of ``AppReceipt`` and
/// ``InAppPurchase``; every other attribute is kept here, uninterpreted, in receipt order.
public struct ReceiptAttribute: Sendable, Hashable {
    /// The attribute type (for example 2 for the bundle identifier).
    public var type: Int64
    /// The attribute version; Apple does not use it.
    public var version: Int64
    /// The content octets of the attribute's OCTET STRING, exactly as received: a slice of the decoded input, so
    /// keeping an attribute costs no copy.
    public var value: ArraySlice<UInt8>

    /// Creates an attribute.
    public init(type: Int64, version: Int64 = 1, value: some Sequence<UInt8>) {
        self.type = type
        self.version = version
        if let slice = value as? ArraySlice<UInt8> {
            self.value = slice
        } else {
            self.value = ArraySlice(value)
        }
    }
}
