import ArgumentParser

/// The process exit statuses of `receiptkit`, from sysexits(3). Higher is worse.
enum ExitStatus: Int32, Comparable {
    case valid = 0
    case invalid = 1
    case usage = 64
    case malformed = 65
    case unreadable = 66

    static func < (lhs: ExitStatus, rhs: ExitStatus) -> Bool {
        lhs.severity < rhs.severity
    }

    private var severity: Int {
        switch self {
        case .valid: return 0
        case .invalid: return 1
        case .malformed: return 2
        case .unreadable: return 3
        case .usage: return 4
        }
    }

    var exitCode: ExitCode { ExitCode(self.rawValue) }
}
