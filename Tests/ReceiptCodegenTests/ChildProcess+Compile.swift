import Foundation
import ReceiptKitTesting

extension ChildProcess {
    /// Runs `swiftc` with `arguments` once a compiler slot is free: compilers take turns, at most one per core, as
    /// the cooperative pool allowed when tests waited for them there. They run at the lowest priority (`nice -n 19`
    /// where there is `nice`): an optimizing compiler per core otherwise took the cores from the suites running
    /// beside them, whose servers and PostgreSQL connections have time limits (a full run here failed PostgreSQL
    /// leases after 3 s and a request with 408 while two compilers ran); idle cores are still theirs.
    ///
    /// The driver's own niceness is not enough: swift-driver starts each `swift-frontend` at the default priority
    /// whatever its own (`ps -o ni` showed 19 for `swiftc` and 0 for its frontends, and a full run again failed
    /// PostgreSQL leases, a 408 and requests past the test client's 15 s while two frontends held the cores), so the
    /// frontends are started through ``NiceFrontend`` (`-driver-use-frontend-path`).
    static func compile(_ arguments: [String]) async throws -> Output {
        await CompilerSlots.shared.acquire()
        do {
            let swiftc = HarnessBuild.swiftc ?? "swiftc"
            let output: Output
            if let nice = NiceFrontend.nice, let niceFrontend = NiceFrontend.arguments(swiftc: swiftc) {
                output = try await Self.run(URL(fileURLWithPath: nice), ["-n", "19", swiftc] + niceFrontend + arguments)
            } else {
                output = try await Self.run(URL(fileURLWithPath: swiftc), arguments)
            }
            await CompilerSlots.shared.release()
            return output
        } catch {
            await CompilerSlots.shared.release()
            throw error
        }
    }
}
