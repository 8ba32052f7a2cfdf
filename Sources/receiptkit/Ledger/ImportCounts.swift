/// What an import did with its inputs, as its summary says it.
struct ImportCounts: Sendable, Equatable {
    /// Receipts the import recorded.
    var imported = 0
    /// Receipts the ledger held already: skipped by hash before validation, or found recorded when written (the
    /// same receipt twice in the inputs, or another writer first).
    var alreadyRecorded = 0
    /// Receipts that verified but the service would not record: an app outside `allowed_bundle_ids`, a stored
    /// string holding U+0000.
    var refused = 0
    /// Inputs that failed validation (exit status 1).
    var invalid = 0
    /// Inputs that are not a receipt (65).
    var malformed = 0
    /// Inputs that could not be read (66).
    var unreadable = 0

    /// Every input with a verdict.
    var total: Int { self.imported + self.alreadyRecorded + self.refused + self.invalid + self.malformed + self.unreadable }

    /// `10,000 receipts: 9,990 imported, 5 already in the ledger, 5 not imported (1 refused, 3 invalid, 1 malformed,
    /// 0 unreadable)`.
    var summary: String {
        let notImported = self.refused + self.invalid + self.malformed + self.unreadable
        let grouped = BatchProgress.grouped
        return "\(grouped(self.total)) receipts: \(grouped(self.imported)) imported, "
            + "\(grouped(self.alreadyRecorded)) already in the ledger, \(grouped(notImported)) not imported "
            + "(\(grouped(self.refused)) refused, \(grouped(self.invalid)) invalid, \(grouped(self.malformed)) malformed, "
            + "\(grouped(self.unreadable)) unreadable)"
    }
}
