// The environment type AppStoreJWS's payloads carry, visible to clients without importing AppStorePKI.
@_exported public import struct AppStorePKI.AppStoreEnvironment
