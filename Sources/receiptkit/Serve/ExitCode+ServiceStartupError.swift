import ArgumentParser
import ReceiptService

extension ExitCode {
    /// sysexits(3) for what stopped the service's start: 66 an unreadable file, 65 a malformed one or a malformed
    /// `RECEIPTKIT_…` variable (configuration errors), 64 a database location that names none or a flag out of range
    /// (usage errors), 69 a database that cannot be opened (unavailable) or an SQLite file another process owns.
    init(_ error: ServiceStartupError) {
        let statuses: [ServiceStartupError.Code: Int32] = [
            .unreadableFile: 66, .malformedFile: 65, .malformedEnvironment: 65, .invalidSetting: 64, .invalidDatabase: 64,
        ]
        self.init(statuses[error.code] ?? 69)
    }
}
