extension InAppPurchase: CustomReflectable {
    /// Shows the values the public properties return, not how a decoded record stores them: the rows of the
    /// record's table by attribute type, then ``otherAttributes``.
    public var customMirror: Mirror {
        let rows = ReceiptFieldEntries.of(self, raw: self.raw).sorted { ($0.type ?? 0) < ($1.type ?? 0) }
        let children = rows.map { (label: Optional($0.label), value: $0.reflected) }
        return Mirror(self, children: children + [("otherAttributes", self.otherAttributes)], displayStyle: .struct)
    }
}
