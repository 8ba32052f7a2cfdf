public import AppStoreJWS

/// A value Apple documents as one of a list (a product type, a subscription status): AppStoreJWS's
/// `AppStoreEnumeration`, the one shape of every such value, payloads' and the API's alike.
public typealias APIEnumeration = AppStoreEnumeration
