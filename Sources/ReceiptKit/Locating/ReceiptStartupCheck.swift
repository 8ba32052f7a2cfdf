public import AppStorePKI
public import struct Foundation.Date

/// The check a Mac App Store app runs at launch: validate the bundle's receipt against the bundle itself and this
/// Mac, and exit with status 173 when it fails, so macOS asks the App Store for a fresh receipt and relaunches.
///
/// The decision is platform-independent and testable (``evaluate(bundle:device:anchors:now:)``); only
/// `validateMainBundleOrExit(now:)` touches the process, and it exists on macOS only.
public enum ReceiptStartupCheck {
    /// The exit status that makes macOS fetch a receipt from the App Store.
    public static let receiptRefreshExitStatus: Int32 = 173

    /// The policy the startup check applies to `bundle`: the chain to `anchors`, the bundle's identifier and
    /// `CFBundleShortVersionString`, and the device hash for `device`. Adjust it (Xcode receipts, validation time)
    /// and pass it to ``evaluate(bundle:policy:now:)``.
    public static func policy(
        for bundle: ApplicationBundle,
        device: DeviceIdentifier?,
        anchors: AppStoreTrustAnchors = .apple
    ) -> ReceiptValidationPolicy {
        ReceiptValidationPolicy(
            anchors: anchors,
            bundleIdentifier: bundle.bundleIdentifier,
            appVersion: bundle.shortVersion,
            device: device
        )
    }

    /// Validates `bundle`'s receipt: Apple's chain, the bundle's identifier and `CFBundleShortVersionString`, and the
    /// device hash for `device`.
    ///
    /// - Returns: The validation result, or the ``Failure`` that prevented one (a missing or malformed
    ///   receipt). Either way, anything but a valid result means "exit with 173".
    public static func evaluate(
        bundle: ApplicationBundle,
        device: DeviceIdentifier?,
        anchors: AppStoreTrustAnchors = .apple,
        now: Date
    ) async -> Result<ReceiptValidationResult, Failure> {
        await Self.evaluate(bundle: bundle, policy: Self.policy(for: bundle, device: device, anchors: anchors), now: now)
    }

    /// Validates `bundle`'s receipt under `policy` (usually ``policy(for:device:anchors:)``, adjusted).
    ///
    /// - Returns: The validation result, or the ``Failure`` that prevented one (a missing or malformed receipt).
    public static func evaluate(
        bundle: ApplicationBundle,
        policy: ReceiptValidationPolicy,
        now: Date
    ) async -> Result<ReceiptValidationResult, Failure> {
        let bytes: [UInt8]
        do { bytes = try bundle.receipt() } catch { return .failure(.unreadable(error)) }
        do {
            return .success(try await ReceiptValidator(policy: policy).validate(bytes, now: now))
        } catch {
            return .failure(.malformed(error))
        }
    }
}

#if os(macOS)
import Foundation

extension ReceiptStartupCheck {
    /// Validates the running app's receipt and exits the process with status 173 unless it is valid.
    ///
    /// Call early in `main` or `applicationWillFinishLaunching`. For resistance to patching, also repeat
    /// validation elsewhere in the app (see the threat model).
    public static func validateMainBundleOrExit(now: Date = Date()) async {
        guard let bundle = try? ApplicationBundle(path: Bundle.main.bundlePath) else {
            exit(Self.receiptRefreshExitStatus)
        }
        switch await Self.evaluate(bundle: bundle, device: DeviceIdentifier.current, now: now) {
        case .success(let result) where result.isValid:
            return
        default:
            exit(Self.receiptRefreshExitStatus)
        }
    }
}
#endif
