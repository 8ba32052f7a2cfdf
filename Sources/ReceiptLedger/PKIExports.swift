// The environment type the ledger keys its rows by, visible to clients without importing AppStorePKI.
@_exported public import struct AppStorePKI.AppStoreEnvironment
