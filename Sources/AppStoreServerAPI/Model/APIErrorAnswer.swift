import AppStoreJWS

/// An error answer of the App Store Server API: the HTTP status and Apple's JSON body,
/// `{"errorCode":4040010,"errorMessage":"Transaction id not found."}` — what a server that answers like Apple's
/// (the ledger's mirror in `receiptkit serve`, the simulator) sends.
///
/// The constants are Apple's documented codes and messages (the page of each error in "App Store Server API").
public struct APIErrorAnswer: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// Apple's `errorCode`.
    public var errorCode: Int64
    /// Apple's `errorMessage`.
    public var errorMessage: String

    /// An answer of `status` with Apple's `errorCode` and `errorMessage`.
    public init(status: Int, errorCode: Int64, errorMessage: String) {
        self.status = status
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    private init(_ status: Int, _ errorCode: Int64, _ errorMessage: String) {
        self.init(status: status, errorCode: errorCode, errorMessage: errorMessage)
    }

    /// The JSON body, members in byte order.
    public var body: [UInt8] {
        JSONValue.object([
            "errorCode": .number(JSONNumber(self.errorCode)),
            "errorMessage": .string(self.errorMessage),
        ]).serialized
    }

    /// 400 GeneralBadRequestError: a body that is not the JSON the endpoint takes.
    public static let generalBadRequest = Self(400, 4_000_000, "Bad request.")
    /// 400 InvalidRequestRevisionError: a `revision` the server did not issue.
    public static let invalidRequestRevision = Self(400, 4_000_005, "Invalid request revision.")
    /// 400 InvalidTransactionIdError: an identifier that is not 1 to 64 ASCII digits.
    public static let invalidTransactionId = Self(400, 4_000_006, "Invalid transaction id.")
    /// 400 InvalidOriginalTransactionIdError.
    public static let invalidOriginalTransactionId = Self(400, 4_000_008, "Invalid original transaction id.")
    /// 400 InvalidExtendByDaysError: `extendByDays` not 1 to 90.
    public static let invalidExtendByDays = Self(400, 4_000_009, "Invalid extend by days value.")
    /// 400 InvalidExtendReasonCodeError: `extendReasonCode` not 0 to 3.
    public static let invalidExtendReasonCode = Self(400, 4_000_010, "Invalid extend reason code.")
    /// 400 InvalidRequestIdentifierError: `requestIdentifier` missing, empty or over 128 characters.
    public static let invalidRequestIdentifier = Self(400, 4_000_011, "Invalid request identifier.")
    /// 400 StartDateTooFarInPastError: a notification history start more than 180 days ago.
    public static let startDateTooFarInPast = Self(
        400, 4_000_012, "Invalid request. The start date is earlier than the allowed start date.")
    /// 400 StartDateAfterEndDateError.
    public static let startDateAfterEndDate = Self(
        400, 4_000_013, "Invalid request. The end date precedes the start date or the dates are the same.")
    /// 400 InvalidPaginationTokenError.
    public static let invalidPaginationToken = Self(400, 4_000_014, "Invalid request. The pagination token is invalid.")
    /// 400 InvalidStartDateError.
    public static let invalidStartDate = Self(
        400, 4_000_015, "Invalid request. The start date is not a timestamp value in milliseconds.")
    /// 400 InvalidEndDateError.
    public static let invalidEndDate = Self(
        400, 4_000_016, "Invalid request. The end date is not a timestamp value in milliseconds.")
    /// 400 MultipleFiltersSuppliedError: both `transactionId` and a notification type in a history request.
    public static let multipleFiltersSupplied = Self(
        400, 4_000_019, "Invalid request. Supply either a transaction id or a notification type, but not both.")
    /// 400 InvalidSortError.
    public static let invalidSort = Self(400, 4_000_021, "Invalid request. The sort parameter is invalid.")
    /// 400 InvalidProductTypeError.
    public static let invalidProductType = Self(
        400, 4_000_022, "Invalid request. The product type parameter is invalid.")
    /// 400 InvalidInAppOwnershipTypeError.
    public static let invalidInAppOwnershipType = Self(
        400, 4_000_026, "Invalid request. The in-app ownership type parameter is invalid.")
    /// 400 InvalidRevokedError.
    public static let invalidRevoked = Self(400, 4_000_030, "Invalid request. The revoked parameter is invalid.")
    /// 400 InvalidStatusError.
    public static let invalidStatus = Self(400, 4_000_031, "Invalid request. The status parameter is invalid.")
    /// 400 InvalidCustomerConsentedError: consumption information without `"customerConsented": true`.
    public static let invalidCustomerConsented = Self(
        400, 4_000_035, "Invalid request. The customer consented field is invalid.")
    /// 400 InvalidDeliveryStatusError: consumption information whose `deliveryStatus` is none of Apple's.
    public static let invalidDeliveryStatus = Self(
        400, 4_000_036, "Invalid request. The delivery status field is invalid.")
    /// 400 InvalidSampleContentProvidedError: consumption information without a boolean `sampleContentProvided`.
    public static let invalidSampleContentProvided = Self(
        400, 4_000_041, "Invalid request. The sample content provided field is invalid.")
    /// 400 InvalidAppAccountTokenUUIDError.
    public static let invalidAppAccountTokenUUID = Self(
        400, 4_000_183, "Invalid request. The app account token field must be a valid UUID.")
    /// 400 FamilyTransactionNotSupportedError.
    public static let familyTransactionNotSupported = Self(
        400, 4_000_185, "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    /// 400 TransactionIdIsNotOriginalTransactionIdError.
    public static let transactionIdNotOriginalTransactionId = Self(
        400, 4_000_187, "Invalid request. The transaction ID provided is not an original transaction ID.")
    /// 403 SubscriptionExtensionIneligibleError: the subscription is expired or revoked.
    public static let subscriptionExtensionIneligible = Self(
        403, 4_030_004, "Forbidden - subscription state ineligible for extension.")
    /// 404 OriginalTransactionIdNotFoundError.
    public static let originalTransactionIdNotFound = Self(404, 4_040_005, "Original transaction id not found.")
    /// 404 TestNotificationNotFoundError.
    public static let testNotificationNotFound = Self(
        404, 4_040_008,
        "Either the test notification token is expired or the notification and status are not yet available.")
    /// 404 TransactionIdNotFoundError.
    public static let transactionIdNotFound = Self(404, 4_040_010, "Transaction id not found.")
    /// 404 4040019: the customer has no app transaction (Get App Transaction Info).
    public static let appTransactionDoesNotExist = Self(404, 4_040_019, "No AppTransaction exists for the customer.")
    /// 429 RateLimitExceededError.
    public static let rateLimitExceeded = Self(429, 4_290_000, "Rate limit exceeded.")
    /// 500 GeneralInternalError.
    public static let generalInternal = Self(500, 5_000_000, "An unknown error occurred.")
    /// 500 GeneralInternalRetryableError.
    public static let generalInternalRetryable = Self(500, 5_000_001, "An unknown error occurred. Please try again.")
}
