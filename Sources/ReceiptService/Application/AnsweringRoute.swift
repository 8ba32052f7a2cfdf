/// One route that answers a request body: how the answer is made, what is answered when the request's time is up
/// or the body budget is spent, and how its log line is named. Every such route goes through
/// ``VerifyReceiptServer``'s one handler path (body limits, time limit, log line, JSON response).
struct AnsweringRoute: Sendable {
    /// The log line's message (`verifyReceipt`, `notification`, `jws`).
    let name: String
    /// Fields of the log line that the route fixes (the endpoint).
    var metadata: [String: String] = [:]
    /// The answer when the request timeout passes first.
    let timedOut: any HTTPAnswer
    /// The body of the 503 sent when the body budget cannot cover the request (empty: none).
    let busyBody: [UInt8]
    /// Makes the answer from the body.
    let answer: @Sendable ([UInt8]) async -> any HTTPAnswer
}

extension AnsweringRoute {
    /// `POST /verifyReceipt` or `POST /sandbox/verifyReceipt`.
    static func verifyReceipt(_ endpoint: VerifyReceiptEndpoint, _ verifier: ReceiptVerifier) -> Self {
        Self(
            name: "verifyReceipt",
            metadata: ["endpoint": endpoint.rawValue],
            timedOut: VerifyReceiptAnswer.failure(.internalError, reasons: [.timeout], retryable: true),
            busyBody: [],
            answer: { body in await verifier.answer(body: body, endpoint: endpoint) }
        )
    }

    /// `POST /notifications/v2` or `POST /jws/verify`.
    static func signedData(
        _ endpoint: SignedDataEndpoint, _ answer: @escaping @Sendable ([UInt8]) async -> SignedDataAnswer
    ) -> Self {
        Self(
            name: endpoint.logName,
            timedOut: Self.signedDataTimedOut,
            busyBody: Self.signedDataBusyBody,
            answer: answer
        )
    }

    private static let signedDataTimedOut = ReceiptVerifier.answer(.unavailable, [.timeout])
    private static let signedDataBusyBody = ReceiptVerifier.answer(.unavailable, [.bodyBudgetExhausted]).body
}
