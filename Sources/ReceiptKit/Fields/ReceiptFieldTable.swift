/// A record with a table of documented fields (``AppReceipt``, ``InAppPurchase``), which every visitor reads.
protocol ReceiptFieldTable {
    /// Calls `visitor` once per row of the table, in its order, with the row's stored value `inout`.
    static func visitFields<V: ReceiptFieldVisitor>(of record: inout Self, with visitor: inout V)
}

extension ReceiptFieldTable {
    /// Bit `type - base` set for each documented type of the table that must not repeat (the decoder's check).
    static func typeMask(of empty: Self, base: Int64) -> UInt64 {
        ReceiptFieldEntries.of(empty).reduce(0) { mask, entry in
            guard let type = entry.type, !entry.repeats else { return mask }
            let bit = type &- base
            return bit >= 0 && bit < 64 ? mask | (1 << bit) : mask
        }
    }
}

extension AppReceipt: ReceiptFieldTable {}
extension InAppPurchase: ReceiptFieldTable {}
