import ArgumentParser

struct JWSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jws",
        abstract: "Decode and verify App Store signed data (StoreKit 2 transactions, renewal info, AppTransaction, notifications).",
        discussion: """
            An input is a compact JWS (header.payload.signature) or the body Apple POSTs to a notification URL \
            ({"signedPayload": "…"}). Its kind is told from its fields unless --kind names it.
            """,
        subcommands: [JWSInspectCommand.self, JWSVerifyCommand.self, JWSBenchCommand.self]
    )
}
