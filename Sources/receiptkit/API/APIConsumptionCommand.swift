import AppStoreJWS
import AppStoreServerAPI
import ArgumentParser

/// `receiptkit api consumption <transaction-id>`: Send Consumption Information (V2), after a `CONSUMPTION_REQUEST`
/// notification.
struct APIConsumptionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consumption",
        abstract: "Send Consumption Information (V2) for a purchase a customer asked a refund for.",
        discussion: """
            Answers a CONSUMPTION_REQUEST notification for the transaction it names. Send it only with the \
            customer's consent: --customer-consented is required. Prints `sent consumption information for \
            <transaction-id>` (--json: {"transactionId":…,"request":{…}}, the body as sent). Exit status as \
            `receiptkit api`.
            """
    )

    @OptionGroup var options: APIOptions

    @Argument(help: "The transaction id of the CONSUMPTION_REQUEST notification.")
    var transactionID: String

    @Flag(name: .customLong("customer-consented"), help: "The customer consented to share consumption data (required).")
    var customerConsented = false

    @Option(
        name: .customLong("delivery-status"),
        help: ArgumentHelp(
            "DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_WRONG_ITEM, UNDELIVERED_SERVER_OUTAGE or UNDELIVERED_OTHER.",
            valueName: "status"
        )
    )
    var deliveryStatus: String

    @Option(
        name: .customLong("sample-content-provided"),
        help: ArgumentHelp("true or false: a sample, trial or description of the content preceded the purchase.", valueName: "bool")
    )
    var sampleContentProvided: String

    @Option(
        name: .customLong("consumption-percentage"),
        help: ArgumentHelp("How much the customer consumed, in milliunits: 0 to 100000 (100 %).", valueName: "milliunits")
    )
    var consumptionPercentage: Int32?

    @Option(
        name: .customLong("refund-preference"),
        help: ArgumentHelp("DECLINE, GRANT_FULL or GRANT_PRORATED.", valueName: "preference")
    )
    var refundPreference: String?

    static let deliveryStatuses: [ConsumptionDeliveryStatus] = [
        .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
    ]
    static let refundPreferences: [RefundPreference] = [.decline, .grantFull, .grantProrated]

    func validate() throws {
        if self.transactionID.isEmpty { throw ValidationError("the transaction id must not be empty") }
        guard self.customerConsented else {
            throw ValidationError("--customer-consented is required: send consumption information only with the customer's consent")
        }
        guard Self.deliveryStatuses.contains(ConsumptionDeliveryStatus(rawValue: self.deliveryStatus)) else {
            throw ValidationError(
                "--delivery-status takes \(Self.deliveryStatuses.map(\.rawValue).joined(separator: ", ")), not '\(self.deliveryStatus)'")
        }
        guard ["true", "false"].contains(self.sampleContentProvided) else {
            throw ValidationError("--sample-content-provided takes true or false, not '\(self.sampleContentProvided)'")
        }
        if let percentage = self.consumptionPercentage, !(0...ConsumptionRequest.wholePercentage).contains(percentage) {
            throw ValidationError("--consumption-percentage takes 0 to 100000 (milliunits), not \(percentage)")
        }
        if let preference = self.refundPreference,
            !Self.refundPreferences.contains(RefundPreference(rawValue: preference))
        {
            throw ValidationError(
                "--refund-preference takes \(Self.refundPreferences.map(\.rawValue).joined(separator: ", ")), not '\(preference)'")
        }
    }

    func run() async throws {
        let id = self.transactionID
        let request = ConsumptionRequest(
            customerConsented: true,
            deliveryStatus: ConsumptionDeliveryStatus(rawValue: self.deliveryStatus),
            sampleContentProvided: self.sampleContentProvided == "true",
            consumptionPercentage: self.consumptionPercentage,
            refundPreference: self.refundPreference.map(RefundPreference.init(rawValue:))
        )
        try await self.options.call("api consumption \(id)") { client throws(AppStoreServerAPIError) in
            try await client.sendConsumptionInformation(transactionID: id, request)
        }
        guard self.options.json else {
            print("sent consumption information for \(id)")
            return
        }
        print(JSONOutput.line(Sent(transactionId: id, request: request)))
    }

    /// What `--json` prints.
    private struct Sent: Encodable {
        let transactionId: String
        let request: ConsumptionRequest
    }
}
