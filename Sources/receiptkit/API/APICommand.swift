import ArgumentParser

/// `receiptkit api`: Apple's App Store Server API from the command line, every signed value verified.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Ask Apple's App Store Server API: transaction history, statuses, orders, refunds, notifications, consumption.",
        discussion: """
            Every subcommand authenticates with an In-App Purchase key from App Store Connect (Users and Access, \
            Integrations, In-App Purchase): --issuer-id, --key-id and the .p8 file downloaded once (--private-key), \
            for the app --bundle-id, on Apple's production host or, with --environment sandbox, its sandbox host \
            (--base-url: a host of your own, https or plain http to a loopback address, such as a local simulator). \
            Each signed value in an answer is verified before it is printed: ES256, the chain to Apple Root CA - G3 \
            (or an --anchor), Apple's markers, the bundle id and the environment. The key is never printed or logged.
            Text output is one line per transaction: <transactionId> original <originalTransactionId> <productId> \
            purchased <RFC 3339> [expires <RFC 3339>] [revoked <RFC 3339> reason <n>]. --json prints Apple's answer \
            with each signed value replaced by its verified payload (fields as Apple signs them, dates in \
            milliseconds); on an error, {"error":{"code":…,"reason":…,"httpStatus":…,"errorCode":…,"errorMessage":…, \
            "retryAfter":…,"reasons":[…]}} (the members that apply).
            429 answers are retried after Retry-After, 5xx answers and failed connections with a jittered backoff: \
            3 attempts within 30 seconds of waiting and 60 seconds in all. An attempt times out after 30 seconds.
            Exit status: 0 success; 1 signed data in the answer is not trusted (its reason codes on stderr); 65 Apple \
            answered with an error (its errorCode and errorMessage on stderr, e.g. 4040010 Transaction id not found.), \
            or an answer or signed value that cannot be read, or a --private-key file that is not a PEM PKCS#8 P-256 \
            key, or a malformed --anchor; 66 the --private-key or an --anchor file cannot be read; 69 Apple \
            unreachable, or answering 5xx, after the retries; 75 still rate limited (429) after the retries, or \
            interrupted; 77 Apple \
            refused the key (401: the key id, issuer id or key; 403: the key may not serve this app); 64 usage (bad \
            options, a bad RFC 3339 time, a --base-url that is neither https nor http to a loopback address).
            """,
        subcommands: [
            APIHistoryCommand.self, APITransactionCommand.self, APIAppTransactionCommand.self, APIStatusesCommand.self, APILookupCommand.self,
            APIRefundsCommand.self, APINotificationHistoryCommand.self, APITestNotificationCommand.self,
            APIConsumptionCommand.self,
        ]
    )
}
