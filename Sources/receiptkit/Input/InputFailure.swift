import AppStoreJWS
import AppStorePKI
import ArgumentParser
import ReceiptKit

/// What went wrong with one input before any verdict: the file could not be read (exit 66), or what was read is not
/// what the command expects (exit 65). It keeps the library error's stable code and reason for the report.
struct InputFailure: Error, Sendable {
    /// The library error's code, e.g. `unreadable_file` or `malformed_container`.
    var code: String
    /// A human-readable explanation.
    var reason: String
    /// The exit status this failure alone calls for.
    var status: ExitStatus

    init(_ error: ReceiptFileError) {
        // A bundle that was read but lacks its identity is malformed, like any other content.
        self.init(code: error.code.rawValue, reason: error.reason, status: error.code == .unreadableFile ? .unreadable : .malformed)
    }

    init(_ error: ReceiptError) {
        self.init(code: error.code.rawValue, reason: error.reason, status: .malformed)
    }

    init(_ error: MalformedCertificateError) {
        self.init(code: ReceiptError.Code.malformedCertificate.rawValue, reason: error.reason, status: .malformed)
    }

    init(_ error: JWSError) {
        self.init(code: error.code.rawValue, reason: error.reason, status: .malformed)
    }

    init(_ failure: ReceiptStartupCheck.Failure) {
        switch failure {
        case .unreadable(let error): self.init(error)
        case .malformed(let error): self.init(error)
        }
    }

    /// A file or list that cannot be read, with the library's `unreadable_file` code.
    static func unreadable(_ reason: String) -> InputFailure {
        InputFailure(code: ReceiptFileError.Code.unreadableFile.rawValue, reason: reason, status: .unreadable)
    }

    /// An input over a size limit, with the library's `input_too_large` code.
    static func tooLarge(_ reason: String) -> InputFailure {
        InputFailure(code: ReceiptError.Code.inputTooLarge.rawValue, reason: reason, status: .malformed)
    }

    private init(code: String, reason: String, status: ExitStatus) {
        self.code = code
        self.reason = reason
        self.status = status
    }
}

extension InputFailure {
    /// Writes `receiptkit: <subject>: <code>: <reason>` to standard error, and with `json` the error object
    /// `{"error":{"code":…,"reason":…}}` to standard output (as `receiptkit api --json` reports every failure);
    /// returns the exit code to end with.
    func reported(subject: String, json: Bool = false) -> ExitCode {
        StandardError.write("receiptkit: \(subject): \(self.code): \(self.reason)\n")
        if json {
            let error = JSONValue.object(["code": .string(self.code), "reason": .string(self.reason)])
            print(JSONOutput.line(JSONValue.object(["error": error])))
        }
        return self.status.exitCode
    }
}
