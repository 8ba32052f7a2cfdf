import AppStorePKI
import AppStoreJWS
import AppStoreJWSOCSP
import AppStoreServerAPI
import struct Foundation.URL
public import Hummingbird
import Logging
import NIOCore
import ReceiptKit
import ReceiptLedger
import ServiceLifecycle

/// The verifyReceipt service, composed from `configuration`: the settings file read and overridden, the anchors
/// loaded, the ledger opened (SQLite or PostgreSQL), the routes with their middleware and connection limits.
///
/// Run what it returns with `runService()`: the ledger is migrated before the server listens, PostgreSQL's
/// connection pool runs beside it, and on SIGTERM or SIGINT the server stops gracefully, then the ledger is shut
/// down (as it is when the server cannot start).
///
/// ```swift
/// let application = try await buildApplication(configuration: ServiceConfiguration())
/// try await application.runService()
/// ```
///
/// - Parameter configuration: The settings file, its overrides, the logger and the clock.
/// - Returns: The application; nothing listens until it runs.
/// - Throws: ``ServiceStartupError`` for an unreadable or malformed settings, anchor or App Store Server API key
///   file, an App Store Server API setting out of its range, a database location that names none, or a database
///   that cannot be opened.
public func buildApplication(
    configuration: ServiceConfiguration
) async throws(ServiceStartupError) -> some ApplicationProtocol {
    let settings = try configuration.readSettingsFile()
    let accepted = try configuration.accepted(with: settings)
    // The API clients are made, and their settings checked, before the database is opened.
    let apiClients = try ServiceComponents.apiClients(for: accepted, transport: AsyncHTTPTransport(), now: configuration.now)

    let location: LedgerLocation
    do {
        location = try LedgerLocation(configuration.database ?? settings?.database ?? "sqlite:receiptkit.sqlite")
    } catch {
        throw ServiceStartupError(.invalidDatabase, "database: \(error.reason)")
    }
    let logger = configuration.logger
    let ledger: any Ledger
    var services: [any Service] = []  // the ledger's own, beside the server
    do {
        switch location {
        case .sqlite(let path):
            ledger = try await SQLiteLedger(path: path, logger: logger)
        case .postgres(let url):
            let postgres = try PostgresLedger(url: url, logger: logger)
            services.append(postgres)
            ledger = postgres
        }
    } catch {
        throw ServiceStartupError(.databaseUnavailable, "database \(location): \(error.reason)")
    }

    let components = ServiceComponents(
        configuration: accepted, ledger: ledger, metrics: ServiceMetrics(), apiClients: apiClients, now: configuration.now)
    let server = VerifyReceiptServer(
        components: components,
        host: configuration.host ?? settings?.host ?? "127.0.0.1",
        port: configuration.port ?? settings?.port ?? 8080,
        logger: logger
    )
    // Beside the server: the ledger's lifecycle, PostgreSQL's pool, the App Store Server API refresh.
    services = [LedgerLifecycle(ledger: ledger) as any Service] + services + components.services
    let description = location.description
    let onServerRunning = configuration.onServerRunning
    var application = server.application(services: services) { channel in
        let address = channel.localAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        await onServerRunning(address, description)
    }
    application.beforeServerStarts {
        try await ledger.migrate()
        let version = try await ledger.schemaVersion()
        logger.info("ledger ready", metadata: ["database": .string(description), "schema_version": "\(version)"])
    }
    return application
}

extension ServiceConfiguration {
    /// What the verifier accepts: ``verifyReceipt`` with the settings file applied, then the overrides; the anchors
    /// and App Store Server API keys the files name read; the OCSP transport made when a setting asks for it.
    func accepted(with settings: ServiceConfigurationFile?) throws(ServiceStartupError) -> VerifyReceiptConfiguration {
        var accepted = self.verifyReceipt
        settings?.apply(to: &accepted)
        self.applyOverrides(to: &accepted)
        if let checks = self.checksRevocation ?? settings?.checksRevocation {
            accepted.jwsRevocationCheck = checks ? JWSRevocationCheck(transport: HTTPOCSPTransport()) : nil
        }
        accepted.anchors = try self.anchors(adding: settings, to: accepted.anchors)
        if let apps = try self.appStoreServerAPIApps(settings) { accepted.appStoreServerAPI.apps = apps }
        return accepted
    }

    /// The settings file, parsed and checked; `nil` without one.
    func readSettingsFile() throws(ServiceStartupError) -> ServiceConfigurationFile? {
        guard let path = self.settingsFile else { return nil }
        let bytes = try Self.contents(path, label: "--config")
        do {
            return try ServiceConfigurationFile(json: bytes)
        } catch {
            throw ServiceStartupError(.malformedFile, "--config \(path): \(error)")
        }
    }

    /// Applies the overrides that are set.
    func applyOverrides(to configuration: inout VerifyReceiptConfiguration) {
        if let allowed = self.allowsXcodeReceipts { configuration.allowsXcodeReceipts = allowed }
        if let age = self.notificationMaximumAge { configuration.notifications.maximumAge = age }
    }

    /// `anchors` with the settings file's anchors (relative to the file) and ``anchorFiles`` (relative to the
    /// working directory) added; `anchors` itself when there are none.
    func anchors(
        adding settings: ServiceConfigurationFile?,
        to anchors: AppStoreTrustAnchors
    ) throws(ServiceStartupError) -> AppStoreTrustAnchors {
        let directory = self.settingsFile.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        let paths =
            (settings?.anchors ?? []).map { anchor in
                directory.map { URL(fileURLWithPath: anchor, relativeTo: $0).path } ?? anchor
            } + self.anchorFiles
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

    /// The settings file's `app_store_server_api` apps, each key file read now (relative to the settings file);
    /// `nil` without the setting. A key file is `unreadable_file` or `malformed_file` like any other, and no
    /// message ever quotes its contents.
    func appStoreServerAPIApps(
        _ settings: ServiceConfigurationFile?
    ) throws(ServiceStartupError) -> [AppStoreServerAPIAppConfiguration]? {
        guard let entries = settings?.appStoreServerAPI else { return nil }
        let directory = self.settingsFile.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        var apps: [AppStoreServerAPIAppConfiguration] = []
        for entry in entries {
            let path = directory.map { URL(fileURLWithPath: entry.privateKeyFile, relativeTo: $0).path }
                ?? entry.privateKeyFile
            let bytes = try Self.keyFileContents(path)
            do {
                let key = try AppStoreServerAPIKey(
                    issuerID: entry.issuerIdentifier, keyID: entry.keyIdentifier,
                    pemRepresentation: String(decoding: bytes, as: UTF8.self))
                apps.append(
                    try AppStoreServerAPIAppConfiguration(
                        bundleIdentifier: entry.bundleIdentifier, key: key,
                        environment: entry.environment.map { $0 == "sandbox" ? .sandbox : .production },
                        baseURL: entry.baseURL))
            } catch {
                throw ServiceStartupError(
                    .malformedFile, "app_store_server_api \(entry.bundleIdentifier): \(error.code): \(error.reason)")
            }
        }
        return apps
    }

    /// The bytes of a `.p8` key file: a regular file (or a link to one) of at most 64 KiB, opened without blocking,
    /// so that a FIFO or a device named by mistake cannot hang or swell startup; anything else is
    /// ``ServiceStartupError/Code/unreadableFile``.
    static func keyFileContents(_ path: String) throws(ServiceStartupError) -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = try ReceiptFile.regularFileContents(atPath: path, maximumSize: AppStoreServerAPIKey.maximumFileSize)
        } catch {
            throw ServiceStartupError(.unreadableFile, "private_key_file \(path): \(error.code): \(error.reason)")
        }
        guard let bytes else {
            throw ServiceStartupError(.unreadableFile, "private_key_file \(path): not a regular file")
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
