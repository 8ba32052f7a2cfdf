import ArgumentParser
import _ReceiptKitShared

@main
struct ReceiptKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receiptkit",
        abstract: "Decode, validate, benchmark and mint App Store receipts and signed data; evaluate and pin HTTPS server trust.",
        discussion: """
            Exit status: 0 valid (or decoded), 1 decoded but invalid, 64 usage error, 65 malformed input, \
            66 unreadable file, 73 output file cannot be written, 75 a check could not be made yet (jws verify \
            --check-revocation: OCSP responder unreachable; api: still rate limited), 69 a service unreachable after \
            retries (api), 77 credentials refused (api: HTTP 401 or 403). With several inputs, the worst status.
            """,
        version: ReceiptKitVersion.string,
        subcommands: [
            InspectCommand.self, ValidateCommand.self, BenchCommand.self, MintCommand.self, TrustCommand.self,
            ServeCommand.self, LedgerCommand.self, SubscriptionCommand.self, JWSCommand.self, CodegenCommand.self, APICommand.self,
            SignCommand.self, NotificationsCommand.self, SimulateCommand.self,
        ]
    )
}
