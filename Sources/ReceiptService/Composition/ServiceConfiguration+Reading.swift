import AppStoreJWS
import AppStoreJWSOCSP
import AppStorePKI
import AppStoreServerAPI
import Crypto
import ReceiptKit
import _ReceiptKitShared

extension ServiceConfiguration {
    /// `host:port` the service listens on, as the sources resolve them (`[::1]:8080` for an IPv6 host); `nil` when the
    /// settings do not read. For messages about the listening socket.
    public var listeningAddress: String? {
        (try? self.settings().settings)?.listeningAddress
    }

    /// The settings every source gives, layered and checked once; with the `RECEIPTKIT_` variables that name no
    /// setting.
    func settings() throws(ServiceStartupError) -> (settings: ServiceSettings, unknownVariables: [String]) {
        var settings = ServiceSettings(verifyReceipt: self.verifyReceipt)
        var origins: [String: SettingOrigin] = [:]
        if let path = self.settingsFile {
            try settings.read(file: try Self.contents(path, label: "--config"), at: path, origins: &origins)
        }
        let unknown = try settings.read(environment: self.environment, origins: &origins) {
            path, variable throws(ServiceStartupError) in try Self.contents(path, label: variable)
        }
        try settings.read(commandLine: self.commandLineSettings, origins: &origins)
        self.applyFlags(to: &settings, origins: &origins)
        try settings.validate(origins: origins)
        return (settings, unknown)
    }

    /// The settings a typed command-line flag of `receiptkit serve` sets, by setting name: the flag's name. The
    /// flags win over every other source; `--list-settings` and the configuration reference show them from here.
    public static let settingFlags: [String: String] = [
        "host": "--host", "port": "--port", "database": "--database", "anchors": "--anchor",
        "allow_xcode_receipts": "--allow-xcode", "check_revocation": "--check-revocation",
        "notification_max_age_seconds": "--notification-max-age",
    ]

    /// The typed command-line flags that are set, each the last word on its setting.
    private func applyFlags(to settings: inout ServiceSettings, origins: inout [String: SettingOrigin]) {
        func flag<Value>(_ value: Value?, _ name: String, _ apply: (Value) -> Void) {
            guard let value else { return }
            apply(value)
            origins[name] = .commandLine(Self.settingFlags[name] ?? name)
        }
        flag(self.host, "host") { settings.host = $0 }
        flag(self.port, "port") { settings.port = $0 }
        flag(self.database, "database") { settings.database = $0 }
        flag(self.anchorFiles.isEmpty ? nil : self.anchorFiles, "anchors") { settings.anchorFiles += $0 }
        flag(self.allowsXcodeReceipts, "allow_xcode_receipts") { settings.verifyReceipt.allowsXcodeReceipts = $0 }
        flag(self.notificationMaximumAge, "notification_max_age_seconds") {
            settings.verifyReceipt.notifications.maximumAge = $0
        }
        flag(self.checksRevocation, "check_revocation") { settings.checksRevocation = $0 }
    }

    /// What the verifier accepts: the settings' ``ServiceSettings/verifyReceipt`` with the anchors and App Store
    /// Server API keys the settings name read, and the OCSP transport made when a setting asks for it.
    func accepted(_ settings: ServiceSettings) throws(ServiceStartupError) -> VerifyReceiptConfiguration {
        var accepted = settings.verifyReceipt
        if let checks = settings.checksRevocation {
            accepted.jwsRevocationCheck = checks ? JWSRevocationCheck(transport: HTTPOCSPTransport()) : nil
        }
        accepted.anchors = try Self.anchors(settings.anchorFiles, adding: accepted.anchors)
        if !settings.apps.isEmpty { accepted.appStoreServerAPI.apps = try Self.apps(settings.apps) }
        return accepted
    }

    /// `anchors` with the certificates of `paths` added; `anchors` itself when there are none.
    static func anchors(
        _ paths: [String], adding anchors: AppStoreTrustAnchors
    ) throws(ServiceStartupError) -> AppStoreTrustAnchors {
        guard !paths.isEmpty else { return anchors }
        var certificates = anchors.certificates
        for path in paths {
            let bytes = try Self.contents(path, label: "anchor")
            do {
                certificates += try AppStoreTrustAnchors.certificates(fromDEROrPEM: bytes)
            } catch {
                throw ServiceStartupError(.malformedFile, "anchor \(path): malformed_certificate: \(error.reason)")
            }
        }
        return AppStoreTrustAnchors(certificates, trustsAppleRoot: anchors.trustsAppleRoot)
    }

    /// The App Store Server API apps of `entries`, each key file read now. A key file is `unreadable_file` or
    /// `malformed_file` like any other, and no message ever quotes its contents.
    static func apps(
        _ entries: [AppStoreServerAPISetting]
    ) throws(ServiceStartupError) -> [AppStoreServerAPIAppConfiguration] {
        var apps: [AppStoreServerAPIAppConfiguration] = []
        for entry in entries {
            let environment = entry.environment.map { $0 == "sandbox" ? AppStoreEnvironment.sandbox : .production }
            do {
                if let file = entry.privateKeyFile {
                    let bytes = try Self.keyFileContents(file, label: "private_key_file")
                    let key = try AppStoreServerAPIKey(
                        issuerID: entry.issuerIdentifier, keyID: entry.keyIdentifier,
                        pemRepresentation: String(decoding: bytes, as: UTF8.self))
                    apps.append(
                        try AppStoreServerAPIAppConfiguration(
                            bundleIdentifier: entry.bundleIdentifier, key: key, environment: environment,
                            appAppleID: entry.appAppleID, baseURL: entry.baseURL))
                } else if let file = entry.publicKeyFile {
                    let bytes = try Self.keyFileContents(file, label: "public_key_file")
                    guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: String(decoding: bytes, as: UTF8.self))
                    else {
                        throw ServiceStartupError(
                            .malformedFile,
                            "app_store_server_api \(entry.bundleIdentifier): public_key_file \(file): not a PEM P-256 public key")
                    }
                    apps.append(
                        try AppStoreServerAPIAppConfiguration(
                            bundleIdentifier: entry.bundleIdentifier, keyID: entry.keyIdentifier,
                            issuerID: entry.issuerIdentifier, publicKey: publicKey, environment: environment))
                } else {
                    // The settings check refuses such an entry first; an entry made in code may still be one.
                    throw ServiceStartupError(
                        .malformedFile,
                        "app_store_server_api \(entry.bundleIdentifier): give exactly one of private_key_file and public_key_file")
                }
            } catch let error as ServiceStartupError {
                throw error
            } catch let error as AppStoreServerAPIError {
                throw ServiceStartupError(
                    .malformedFile, "app_store_server_api \(entry.bundleIdentifier): \(error.code): \(error.reason)")
            } catch {
                throw ServiceStartupError(.malformedFile, "app_store_server_api \(entry.bundleIdentifier): not usable")
            }
        }
        return apps
    }

    /// The bytes of a key file (`label`: which setting named it): a regular file (or a link to one) of at most 64 KiB,
    /// opened without blocking, so that a FIFO or a device named by mistake cannot hang or swell startup; anything
    /// else is ``ServiceStartupError/Code/unreadableFile``.
    static func keyFileContents(_ path: String, label: String) throws(ServiceStartupError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try CappedFileReader.regularFileContents(atPath: path, maximumSize: AppStoreServerAPIKey.maximumFileSize)
        } catch {
            throw ServiceStartupError(.unreadableFile, "\(label) \(path): unreadable_file: \(error.reason)")
        }
        guard let bytes else {
            throw ServiceStartupError(.unreadableFile, "\(label) \(path): not a regular file")
        }
        return bytes
    }

    /// The bytes of a file the configuration names; an unreadable one is ``ServiceStartupError/Code/unreadableFile``.
    static func contents(_ path: String, label: String) throws(ServiceStartupError) -> [UInt8] {
        do {
            return try ReceiptFile.contents(atPath: path)
        } catch {
            throw ServiceStartupError(.unreadableFile, "\(label) \(path): \(error.code): \(error.reason)")
        }
    }
}
