import struct Foundation.Date

/// One row of a record's table with the value the record holds there: what `Codable` encoding, the mirror, the
/// minter and the checks of the tables read (``ReceiptFieldEntries`` lists them).
struct ReceiptFieldEntry {
    /// A row's value, by the row's kind (see ``ReceiptFieldVisitor``).
    enum Value {
        case integer(Int64?, quoted: Bool)
        case flag(Bool?)
        case date(Date?)
        /// A string; a purchase's ``DeferredText`` resolved.
        case string(String?)
        /// A string and the DER bytes kept with it.
        case der(String?, [UInt8]?)
        case octets([UInt8]?)
        case purchases([InAppPurchase])
        case alias(Int64?, primary: StaticString)
        case requestDate
    }

    /// The ASN.1 attribute type; `nil` for a row that is only a JSON key.
    var type: Int64?
    var key: StaticString
    var value: Value

    /// Whether the attribute may repeat (the purchases); every other documented type appears at most once.
    var repeats: Bool {
        if case .purchases = self.value { return true }
        return false
    }

    /// The JSON keys the row writes (a date writes `key`, `key_ms` and `key_pst`).
    var keys: [String] {
        switch self.value {
        case .date, .requestDate: ["", "_ms", "_pst"].map { self.key.description + $0 }
        default: [self.key.description]
        }
    }

    /// The property's name, from the key: `web_order_line_item_id` is `webOrderLineItemIdentifier`.
    var label: String {
        let words = self.key.description.split(separator: "_").map { $0 == "id" ? "identifier" : String($0) }
        return (words.first ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
