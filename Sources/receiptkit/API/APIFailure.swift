import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// An App Store Server API call that did not succeed, with the exit status `receiptkit api` ends with: 1 signed data
/// not trusted, 65 an error answer from Apple or an answer that cannot be read, 69 unreachable or 5xx after the
/// retries, 75 still rate limited after the retries, 77 HTTP 401 or 403, 64 a configuration the client refuses.
struct APIFailure: Error {
    var error: AppStoreServerAPIError

    init(_ error: AppStoreServerAPIError) {
        self.error = error
    }

    var status: ExitStatus {
        switch self.error.code {
        case .untrustedSignedData: return .invalid
        case .unauthorized, .forbidden: return .noPermission
        case .rateLimited, .cancelled: return .temporaryFailure
        case .serverError, .unreachable: return .unavailable
        case .invalidConfiguration: return .usage
        // api_error, malformed_response, response_too_large, malformed_signed_data, invalid_private_key
        default: return .malformed
        }
    }

    /// `{"error":{"code":…,"reason":…,"httpStatus":…,"errorCode":…,"errorMessage":…,"retryAfter":…,"reasons":[…]}}`.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "code": .string(self.error.code.rawValue),
            "reason": .string(self.error.reason),
        ]
        if let status = self.error.httpStatus { members["httpStatus"] = .number(JSONNumber(Int64(status))) }
        if let code = self.error.apiErrorCode { members["errorCode"] = .number(JSONNumber(code.rawValue)) }
        if let message = self.error.errorMessage { members["errorMessage"] = .string(message) }
        if let retryAfter = self.error.retryAfter {
            members["retryAfter"] = .number(JSONNumber(retryAfter.components.seconds))
        }
        if !self.error.verificationFailures.isEmpty {
            members["reasons"] = .array(self.error.verificationFailures.map { .string($0.code) })
        }
        return .object(["error": .object(members)])
    }

    /// Writes `receiptkit: <subject>: <code>: <reason>` (Apple's `errorCode` and message are in the reason) to
    /// standard error, and with `json` the error object to standard output; returns the exit code to end with.
    func reported(subject: String, json: Bool) -> ExitCode {
        StandardError.write("receiptkit: \(subject): \(self.error.code.rawValue): \(self.error.reason)\n")
        if json { print(JSONOutput.line(self.json)) }
        return self.status.exitCode
    }
}
