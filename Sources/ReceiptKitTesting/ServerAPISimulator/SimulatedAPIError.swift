public import AppStoreJWS

/// An error answer of the App Store Server API: the HTTP status and Apple's JSON body,
/// `{"errorCode":4040010,"errorMessage":"Transaction id not found."}`.
///
/// The constants are the answers ``AppStoreServerSimulator`` gives itself, with Apple's documented codes and
/// messages; script any other with ``SimulatedFault/appleError(_:)``.
public struct SimulatedAPIError: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// Apple's `errorCode`.
    public var errorCode: Int64
    /// Apple's `errorMessage`.
    public var errorMessage: String

    public init(status: Int, errorCode: Int64, errorMessage: String) {
        self.status = status
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// The JSON body, members in byte order.
    public var body: [UInt8] {
        JSONValue.object([
            "errorCode": .number(JSONNumber(self.errorCode)),
            "errorMessage": .string(self.errorMessage),
        ]).serialized
    }

    /// 400 GeneralBadRequestError: a body that is not the JSON the endpoint takes.
    public static let generalBadRequest = Self(status: 400, errorCode: 4_000_000, errorMessage: "Bad request.")
    /// 400 InvalidRequestRevisionError: a `revision` the simulator did not issue.
    public static let invalidRequestRevision = Self(
        status: 400, errorCode: 4_000_005, errorMessage: "Invalid request revision.")
    /// 400 InvalidTransactionIdError: an identifier that is not 1 to 64 ASCII digits.
    public static let invalidTransactionId = Self(
        status: 400, errorCode: 4_000_006, errorMessage: "Invalid transaction id.")
    /// 400 InvalidOriginalTransactionIdError.
    public static let invalidOriginalTransactionId = Self(
        status: 400, errorCode: 4_000_008, errorMessage: "Invalid original transaction id.")
    /// 400 InvalidExtendByDaysError: `extendByDays` not 1 to 90.
    public static let invalidExtendByDays = Self(
        status: 400, errorCode: 4_000_009, errorMessage: "Invalid extend by days value.")
    /// 400 InvalidExtendReasonCodeError: `extendReasonCode` not 0 to 3.
    public static let invalidExtendReasonCode = Self(
        status: 400, errorCode: 4_000_010, errorMessage: "Invalid extend reason code.")
    /// 400 InvalidRequestIdentifierError: `requestIdentifier` missing, empty or over 128 characters.
    public static let invalidRequestIdentifier = Self(
        status: 400, errorCode: 4_000_011, errorMessage: "Invalid request identifier.")
    /// 400 StartDateTooFarInPastError: a notification history start more than 180 days ago.
    public static let startDateTooFarInPast = Self(
        status: 400, errorCode: 4_000_012, errorMessage: "Invalid request. The start date is earlier than the allowed start date.")
    /// 400 StartDateAfterEndDateError.
    public static let startDateAfterEndDate = Self(
        status: 400, errorCode: 4_000_013, errorMessage: "Invalid request. The end date precedes the start date or the dates are the same.")
    /// 400 InvalidPaginationTokenError.
    public static let invalidPaginationToken = Self(
        status: 400, errorCode: 4_000_014, errorMessage: "Invalid request. The pagination token is invalid.")
    /// 400 InvalidStartDateError.
    public static let invalidStartDate = Self(
        status: 400, errorCode: 4_000_015, errorMessage: "Invalid request. The start date is not a timestamp value in milliseconds.")
    /// 400 InvalidEndDateError.
    public static let invalidEndDate = Self(
        status: 400, errorCode: 4_000_016, errorMessage: "Invalid request. The end date is not a timestamp value in milliseconds.")
    /// 400 MultipleFiltersSuppliedError: both `transactionId` and a notification type in a history request.
    public static let multipleFiltersSupplied = Self(
        status: 400, errorCode: 4_000_019, errorMessage: "Invalid request. Supply either a transaction id or a notification type, but not both.")
    /// 400 InvalidSortError.
    public static let invalidSort = Self(status: 400, errorCode: 4_000_021, errorMessage: "Invalid request. The sort parameter is invalid.")
    /// 400 InvalidProductTypeError.
    public static let invalidProductType = Self(
        status: 400, errorCode: 4_000_022, errorMessage: "Invalid request. The product type parameter is invalid.")
    /// 400 InvalidInAppOwnershipTypeError.
    public static let invalidInAppOwnershipType = Self(
        status: 400, errorCode: 4_000_026, errorMessage: "Invalid request. The in-app ownership type parameter is invalid.")
    /// 400 InvalidRevokedError.
    public static let invalidRevoked = Self(
        status: 400, errorCode: 4_000_030, errorMessage: "Invalid request. The revoked parameter is invalid.")
    /// 400 InvalidStatusError.
    public static let invalidStatus = Self(
        status: 400, errorCode: 4_000_031, errorMessage: "Invalid request. The status parameter is invalid.")
    /// 400 InvalidCustomerConsentedError: consumption information without `"customerConsented": true`.
    public static let invalidCustomerConsented = Self(
        status: 400, errorCode: 4_000_035, errorMessage: "Invalid request. The customer consented field is invalid.")
    /// 400 InvalidAppAccountTokenUUIDError.
    public static let invalidAppAccountTokenUUID = Self(
        status: 400, errorCode: 4_000_183, errorMessage: "Invalid request. The app account token field must be a valid UUID.")
    /// 400 FamilyTransactionNotSupportedError.
    public static let familyTransactionNotSupported = Self(
        status: 400, errorCode: 4_000_185, errorMessage: "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    /// 400 TransactionIdIsNotOriginalTransactionIdError.
    public static let transactionIdNotOriginalTransactionId = Self(
        status: 400, errorCode: 4_000_187, errorMessage: "Invalid request. The transaction ID provided is not an original transaction ID.")
    /// 403 SubscriptionExtensionIneligibleError: the subscription is expired or revoked.
    public static let subscriptionExtensionIneligible = Self(
        status: 403, errorCode: 4_030_004, errorMessage: "Forbidden - subscription state ineligible for extension.")
    /// 404 OriginalTransactionIdNotFoundError.
    public static let originalTransactionIdNotFound = Self(
        status: 404, errorCode: 4_040_005, errorMessage: "Original transaction id not found.")
    /// 404 TestNotificationNotFoundError.
    public static let testNotificationNotFound = Self(
        status: 404, errorCode: 4_040_008, errorMessage: "Either the test notification token is expired or the notification and status are not yet available.")
    /// 404 TransactionIdNotFoundError.
    public static let transactionIdNotFound = Self(
        status: 404, errorCode: 4_040_010, errorMessage: "Transaction id not found.")
    /// 429 RateLimitExceededError.
    public static let rateLimitExceeded = Self(status: 429, errorCode: 4_290_000, errorMessage: "Rate limit exceeded.")
    /// 500 GeneralInternalError.
    public static let generalInternal = Self(status: 500, errorCode: 5_000_000, errorMessage: "An unknown error occurred.")
    /// 500 GeneralInternalRetryableError.
    public static let generalInternalRetryable = Self(
        status: 500, errorCode: 5_000_001, errorMessage: "An unknown error occurred. Please try again.")
}
