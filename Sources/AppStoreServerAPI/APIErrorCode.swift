public import AppStoreJWS

/// Apple's `errorCode` in an App Store Server API error response (`{"errorCode":4040010,"errorMessage":"…"}`).
///
/// A struct with static members, not an enum: a code Apple adds tomorrow decodes as itself. The constants are those
/// Apple documents for the endpoints ``AppStoreServerAPIClient`` calls.
public struct APIErrorCode: APIEnumeration {
    /// The number Apple sent.
    public let rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Whether Apple documents the error as one to retry (`…RetryableError`, and `generalInternalRetryable`).
    public var isRetryable: Bool {
        [
            Self.accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIDNotFoundRetryable,
            .generalInternalRetryable,
        ].contains(self)
    }

    /// Whether the code is one of Apple's 403 request errors (`4030001` to `4039999`: a subscription not eligible for
    /// an extension, at its maximum, shared by the family, …): the request was refused, the key was not. `4030000`,
    /// the family's general "Forbidden", names no request error.
    public var isForbiddenRequest: Bool { (4_030_001..<4_040_000).contains(self.rawValue) }

    /// An invalid request.
    public static let generalBadRequest = APIErrorCode(rawValue: 4_000_000)
    /// An invalid app identifier.
    public static let invalidAppIdentifier = APIErrorCode(rawValue: 4_000_002)
    /// An invalid request revision.
    public static let invalidRequestRevision = APIErrorCode(rawValue: 4_000_005)
    /// An invalid transaction identifier.
    public static let invalidTransactionID = APIErrorCode(rawValue: 4_000_006)
    /// An invalid original transaction identifier.
    public static let invalidOriginalTransactionID = APIErrorCode(rawValue: 4_000_008)
    /// An invalid extend-by-days value.
    public static let invalidExtendByDays = APIErrorCode(rawValue: 4_000_009)
    /// An invalid extension reason code.
    public static let invalidExtendReasonCode = APIErrorCode(rawValue: 4_000_010)
    /// An invalid request identifier.
    public static let invalidRequestIdentifier = APIErrorCode(rawValue: 4_000_011)
    /// The start date is earlier than the earliest allowed date.
    public static let startDateTooFarInPast = APIErrorCode(rawValue: 4_000_012)
    /// The end date precedes the start date, or equals it.
    public static let startDateAfterEndDate = APIErrorCode(rawValue: 4_000_013)
    /// An invalid pagination token.
    public static let invalidPaginationToken = APIErrorCode(rawValue: 4_000_014)
    /// An invalid start date.
    public static let invalidStartDate = APIErrorCode(rawValue: 4_000_015)
    /// An invalid end date.
    public static let invalidEndDate = APIErrorCode(rawValue: 4_000_016)
    /// The pagination token expired.
    public static let paginationTokenExpired = APIErrorCode(rawValue: 4_000_017)
    /// An invalid notification type or subtype.
    public static let invalidNotificationType = APIErrorCode(rawValue: 4_000_018)
    /// Too many filters in one request.
    public static let multipleFiltersSupplied = APIErrorCode(rawValue: 4_000_019)
    /// An invalid test notification token.
    public static let invalidTestNotificationToken = APIErrorCode(rawValue: 4_000_020)
    /// An invalid sort parameter.
    public static let invalidSort = APIErrorCode(rawValue: 4_000_021)
    /// An invalid product type parameter.
    public static let invalidProductType = APIErrorCode(rawValue: 4_000_022)
    /// An invalid product id parameter.
    public static let invalidProductID = APIErrorCode(rawValue: 4_000_023)
    /// An invalid subscription group identifier.
    public static let invalidSubscriptionGroupIdentifier = APIErrorCode(rawValue: 4_000_024)
    /// An invalid exclude-revoked parameter.
    public static let invalidExcludeRevoked = APIErrorCode(rawValue: 4_000_025)
    /// An invalid in-app ownership type parameter.
    public static let invalidInAppOwnershipType = APIErrorCode(rawValue: 4_000_026)
    /// An empty storefront country code list.
    public static let invalidEmptyStorefrontCountryCodeList = APIErrorCode(rawValue: 4_000_027)
    /// An invalid storefront country code.
    public static let invalidStorefrontCountryCode = APIErrorCode(rawValue: 4_000_028)
    /// An invalid revoked parameter.
    public static let invalidRevoked = APIErrorCode(rawValue: 4_000_030)
    /// An invalid status parameter.
    public static let invalidStatus = APIErrorCode(rawValue: 4_000_031)
    /// An invalid account tenure value.
    public static let invalidAccountTenure = APIErrorCode(rawValue: 4_000_032)
    /// An invalid app account token value.
    public static let invalidAppAccountToken = APIErrorCode(rawValue: 4_000_033)
    /// An invalid consumption status value.
    public static let invalidConsumptionStatus = APIErrorCode(rawValue: 4_000_034)
    /// The customer-consented field is invalid or says no.
    public static let invalidCustomerConsented = APIErrorCode(rawValue: 4_000_035)
    /// An invalid delivery status value.
    public static let invalidDeliveryStatus = APIErrorCode(rawValue: 4_000_036)
    /// An invalid lifetime-dollars-purchased value.
    public static let invalidLifetimeDollarsPurchased = APIErrorCode(rawValue: 4_000_037)
    /// An invalid lifetime-dollars-refunded value.
    public static let invalidLifetimeDollarsRefunded = APIErrorCode(rawValue: 4_000_038)
    /// An invalid platform value.
    public static let invalidPlatform = APIErrorCode(rawValue: 4_000_039)
    /// An invalid play time value.
    public static let invalidPlayTime = APIErrorCode(rawValue: 4_000_040)
    /// An invalid sample-content-provided value.
    public static let invalidSampleContentProvided = APIErrorCode(rawValue: 4_000_041)
    /// An invalid user status value.
    public static let invalidUserStatus = APIErrorCode(rawValue: 4_000_042)
    /// The transaction is of a product type the endpoint does not support.
    public static let invalidTransactionTypeNotSupported = APIErrorCode(rawValue: 4_000_047)
    /// The endpoint does not accept an app transaction id.
    public static let appTransactionIDNotSupported = APIErrorCode(rawValue: 4_000_048)
    /// The app account token is not a valid UUID.
    public static let invalidAppAccountTokenUUID = APIErrorCode(rawValue: 4_000_183)
    /// The transaction is Family Shared, which the endpoint does not support.
    public static let familyTransactionNotSupported = APIErrorCode(rawValue: 4_000_185)
    /// The endpoint expects an original transaction identifier.
    public static let transactionIDIsNotOriginalTransactionID = APIErrorCode(rawValue: 4_000_187)
    /// The subscription's state does not allow a renewal-date extension.
    public static let subscriptionExtensionIneligible = APIErrorCode(rawValue: 4_030_004)
    /// The subscription already received the maximum number of extensions.
    public static let subscriptionMaxExtension = APIErrorCode(rawValue: 4_030_005)
    /// The subscription is Family Shared and cannot be extended directly.
    public static let familySharedSubscriptionExtensionIneligible = APIErrorCode(rawValue: 4_030_007)
    /// The App Store account was not found.
    public static let accountNotFound = APIErrorCode(rawValue: 4_040_001)
    /// The App Store account was not found; try again.
    public static let accountNotFoundRetryable = APIErrorCode(rawValue: 4_040_002)
    /// The app was not found.
    public static let appNotFound = APIErrorCode(rawValue: 4_040_003)
    /// The app was not found; try again.
    public static let appNotFoundRetryable = APIErrorCode(rawValue: 4_040_004)
    /// The original transaction identifier was not found.
    public static let originalTransactionIDNotFound = APIErrorCode(rawValue: 4_040_005)
    /// The original transaction identifier was not found; try again.
    public static let originalTransactionIDNotFoundRetryable = APIErrorCode(rawValue: 4_040_006)
    /// No notifications URL is set for the app in this environment.
    public static let serverNotificationURLNotFound = APIErrorCode(rawValue: 4_040_007)
    /// The test notification token expired or its status is not available.
    public static let testNotificationNotFound = APIErrorCode(rawValue: 4_040_008)
    /// No renewal-date extension request matches the identifiers.
    public static let statusRequestNotFound = APIErrorCode(rawValue: 4_040_009)
    /// The transaction identifier was not found.
    public static let transactionIDNotFound = APIErrorCode(rawValue: 4_040_010)
    /// No `AppTransaction` exists for the customer.
    public static let appTransactionDoesNotExist = APIErrorCode(rawValue: 4_040_019)
    /// The request exceeded the rate limit.
    public static let rateLimitExceeded = APIErrorCode(rawValue: 4_290_000)
    /// A general internal error.
    public static let generalInternal = APIErrorCode(rawValue: 5_000_000)
    /// A general internal error; try again.
    public static let generalInternalRetryable = APIErrorCode(rawValue: 5_000_001)

    // Issue 48: the codes of Apple's library 6.0.0 not listed above (V1 consumption, Retention Messaging).
    /// Consumption information for a transaction that is not a consumable (V1).
    public static let invalidTransactionNotConsumable = APIErrorCode(rawValue: 4_000_043)
    /// Retention Messaging: the uploaded image is not valid.
    public static let invalidImage = APIErrorCode(rawValue: 4_000_161)
    /// Retention Messaging: the message header is too long.
    public static let headerTooLong = APIErrorCode(rawValue: 4_000_162)
    /// Retention Messaging: the message body is too long.
    public static let bodyTooLong = APIErrorCode(rawValue: 4_000_163)
    /// Retention Messaging: the locale is not valid.
    public static let invalidLocale = APIErrorCode(rawValue: 4_000_164)
    /// Retention Messaging: the image's alternative text is too long.
    public static let altTextTooLong = APIErrorCode(rawValue: 4_000_175)
    /// Retention Messaging: the performance test request is not valid.
    public static let invalidPerformanceTestRequest = APIErrorCode(rawValue: 4_000_211)
    /// Retention Messaging: a performance test's request identifier is not valid (Apple's `invalidRequestId`).
    public static let invalidPerformanceTestRequestIdentifier = APIErrorCode(rawValue: 4_000_212)
    /// Retention Messaging: a performance test is already running.
    public static let existingPerformanceTestRun = APIErrorCode(rawValue: 4_000_213)
    /// Retention Messaging: the realtime URL is not valid.
    public static let badRequestRealtimeURL = APIErrorCode(rawValue: 4_000_215)
    /// Retention Messaging: the image's size is not the one required.
    public static let badRequestImageSize = APIErrorCode(rawValue: 4_000_216)
    /// Retention Messaging: the message has too many bullet points.
    public static let badRequestTooManyBulletPoints = APIErrorCode(rawValue: 4_000_218)
    /// Retention Messaging: a bullet point's text is too long.
    public static let badRequestBulletPointTextTooLong = APIErrorCode(rawValue: 4_000_219)
    /// Retention Messaging: a message placing its header above an image names no image.
    public static let badRequestAboveImageRequiresAnImage = APIErrorCode(rawValue: 4_000_224)
    /// Retention Messaging: the most images allowed are uploaded.
    public static let maximumNumberOfImagesReached = APIErrorCode(rawValue: 4_030_014)
    /// Retention Messaging: the most messages allowed are uploaded.
    public static let maximumNumberOfMessagesReached = APIErrorCode(rawValue: 4_030_016)
    /// Retention Messaging: the message is not approved yet.
    public static let messageNotApproved = APIErrorCode(rawValue: 4_030_017)
    /// Retention Messaging: the image is not approved yet.
    public static let imageNotApproved = APIErrorCode(rawValue: 4_030_018)
    /// Retention Messaging: the image is used by a message.
    public static let imageInUse = APIErrorCode(rawValue: 4_030_019)
    /// Retention Messaging: a passing performance test is needed before a production realtime URL.
    public static let forbiddenNoPassingTest = APIErrorCode(rawValue: 4_030_026)
    /// Retention Messaging: no such image.
    public static let imageNotFound = APIErrorCode(rawValue: 4_040_014)
    /// Retention Messaging: no such message.
    public static let messageNotFound = APIErrorCode(rawValue: 4_040_015)
    /// Retention Messaging: no such performance test run.
    public static let performanceTestRunNotFound = APIErrorCode(rawValue: 4_040_018)
    /// Retention Messaging: no default message is configured.
    public static let defaultMessageNotFound = APIErrorCode(rawValue: 4_040_020)
    /// Retention Messaging: no realtime URL is configured.
    public static let realtimeURLNotFound = APIErrorCode(rawValue: 4_040_021)
    /// Retention Messaging: an image of that identifier exists (409).
    public static let imageAlreadyExists = APIErrorCode(rawValue: 4_090_000)
    /// Retention Messaging: a message of that identifier exists (409).
    public static let messageAlreadyExists = APIErrorCode(rawValue: 4_090_001)
}
