import AppStorePKI
import Foundation
import ReceiptKit

/// What validating one input produced: a verdict, or an error before any verdict.
enum Outcome: Sendable {
    case validated(ReceiptValidationResult)
    case failed(InputFailure)

    var status: ExitStatus {
        switch self {
        case .validated(let result): return result.isValid ? .valid : .invalid
        case .failed(let failure): return failure.status
        }
    }

    /// One JSON line of `validate`. Written by ``jsonLine()``; the `Encodable` conformance is the reference that
    /// writer is tested against.
    struct Report: Encodable {
        struct ErrorInfo: Encodable {
            var code: String
            var reason: String
        }
        var file: String?
        var line: Int?
        var valid: Bool
        var reasons: [String]
        var environment: String?
        var anchor: String?
        var receipt: AppReceipt?
        var error: ErrorInfo?
    }

    func report(file: String?, line: Int? = nil) -> Report {
        switch self {
        case .validated(let result):
            return Report(
                file: file,
                line: line,
                valid: result.isValid,
                reasons: result.failures.map(\.code),
                environment: result.environment?.rawValue,
                anchor: result.anchor?.rawValue,
                receipt: result.receipt
            )
        case .failed(let error):
            return Report(
                file: file,
                line: line,
                valid: false,
                reasons: [error.status == .unreadable ? "unreadable" : "malformed"],
                error: .init(code: error.code, reason: error.reason)
            )
        }
    }

    func printText(path: String) {
        switch self {
        case .validated(let result):
            print(result.isValid ? "VALID" : "INVALID: " + result.failures.map(\.code).joined(separator: " "))
        case .failed(let error):
            StandardError.write("receiptkit: \(path): \(error.code): \(error.reason)\n")
        }
    }
}
