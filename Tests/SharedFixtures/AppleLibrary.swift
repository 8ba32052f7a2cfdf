import Foundation

/// Apple's app-store-server-library for Python (PyPI): whether this machine has it, and whether the run requires it
/// (`RECEIPTKIT_REQUIRE_APPLE_LIBRARY=1`, as `.ci/run` sets after installing it).
public enum AppleLibrary {
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["RECEIPTKIT_REQUIRE_APPLE_LIBRARY"] == "1" }

    /// Whether `python3` imports the library (asked once, when the suites are listed).
    public static let isInstalled: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import appstoreserverlibrary.signed_data_verifier"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Told by the termination handler: `waitUntilExit()` off the main thread can miss the exit on Linux.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        guard (try? process.run()) != nil else { return false }
        exited.wait()
        return process.terminationStatus == 0
    }()
}
