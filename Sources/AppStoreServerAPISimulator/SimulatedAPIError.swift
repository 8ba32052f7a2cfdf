public import AppStoreServerAPI

/// An error answer of the App Store Server API (`APIErrorAnswer` of AppStoreServerAPI): the simulator gives Apple's own answers; script
/// any other with ``SimulatedFault/appleError(_:)``.
public typealias SimulatedAPIError = APIErrorAnswer
