import ReceiptKit

/// An input an import did not record, and why: one JSON line in `validate`'s shape (`file`, `line`, `valid`:
/// false, `reasons`, `environment`, `anchor`, `error`), without the decoded receipt.
struct ImportRefusal: Sendable {
    enum Kind: Sendable {
        /// The receipt verified, but the service would not record it (`bundle_id_not_allowed`,
        /// `string_contains_nul`), or the database refused it (`ledger_error`).
        case refused
        /// It failed validation.
        case invalid
        /// It is not a receipt.
        case malformed
        /// It could not be read.
        case unreadable
    }

    var kind: Kind
    var report: Outcome.Report

    /// A validation's failure (an invalid receipt, or an input that is not one).
    init(_ outcome: Outcome, item: ReceiptBatchSource.Item) {
        switch outcome.status {
        case .unreadable: self.kind = .unreadable
        case .malformed: self.kind = .malformed
        default: self.kind = .invalid
        }
        self.report = outcome.report(file: item.file, line: item.line)
        self.report.receipt = nil
    }

    /// A verified receipt the service would not record, for `reason`.
    init(refusing result: ReceiptValidationResult, reason: String, item: ReceiptBatchSource.Item) {
        self.kind = .refused
        self.report = Outcome.validated(result).report(file: item.file, line: item.line)
        self.report.receipt = nil
        self.report.valid = false
        self.report.reasons = [reason]
    }

    /// The exit status this refusal alone calls for: 1 for a receipt refused or invalid, 65 malformed, 66 unreadable.
    var status: ExitStatus {
        switch self.kind {
        case .refused, .invalid: return .invalid
        case .malformed: return .malformed
        case .unreadable: return .unreadable
        }
    }
}
