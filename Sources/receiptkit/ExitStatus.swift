import ArgumentParser
import ReceiptKit

/// The process exit statuses of `receiptkit`, from sysexits(3). Higher is worse.
enum ExitStatus: Int32, Comparable {
    case valid = 0
    case invalid = 1
    /// Nothing known to be wrong, but a check could not be made (an OCSP responder unreachable): try again later
    /// (EX_TEMPFAIL).
    case temporaryFailure = 75
    /// A service could not be reached, or kept failing, after the retries (EX_UNAVAILABLE): `receiptkit api`.
    case unavailable = 69
    /// A service refused our credentials (EX_NOPERM): `receiptkit api` on HTTP 401 or 403.
    case noPermission = 77
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
        case .unavailable: return 3
        case .malformed: return 4
        case .unreadable: return 5
        case .noPermission: return 6
        case .cannotCreate: return 7
        case .usage: return 8
        }
    }

    var exitCode: ExitCode { ExitCode(self.rawValue) }
}
