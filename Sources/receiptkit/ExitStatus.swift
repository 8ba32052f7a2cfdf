import ArgumentParser
import ReceiptKit

/// The process exit statuses of `receiptkit`, from sysexits(3). Higher is worse.
enum ExitStatus: Int32, Comparable {
    case valid = 0
    case invalid = 1
    /// Nothing known to be wrong, but a check could not be made (an OCSP responder unreachable): try again later
    /// (EX_TEMPFAIL).
    case temporaryFailure = 75
    case usage = 64
    case malformed = 65
    case unreadable = 66
    /// An output file cannot be created or written (EX_CANTCREAT).
    case cannotCreate = 73

    static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
        lhs.severity < rhs.severity
    }

    private var severity: Int {
        switch self {
        case .valid: return 0
        case .invalid: return 1
        case .temporaryFailure: return 2
        case .malformed: return 3
        case .unreadable: return 4
        case .cannotCreate: return 5
        case .usage: return 6
        }
    }

    var exitCode: ExitCode { ExitCode(self.rawValue) }
}
