import Foundation
import ReceiptKitTesting

extension ChildProcess {
    /// Runs `swiftc` with `arguments` once a compiler slot is free: compilers take turns, at most one per core, as
    /// the cooperative pool allowed when tests waited for them there. They run at the lowest priority (`nice -n 19`
    /// where there is `nice`): an optimizing compiler per core otherwise took the cores from the suites running
    /// beside them, whose servers and PostgreSQL connections have time limits (a full run here failed PostgreSQL
    /// leases after 3 s and a request with 408 while two compilers ran); idle cores are still theirs.
    static func compile(_ arguments: [String]) async throws -> Output {
        await CompilerSlots.shared.acquire()
        do {
            let swiftc = HarnessBuild.swiftc ?? "swiftc"
            let nice = "/usr/bin/nice"
            let output =
                FileManager.default.isExecutableFile(atPath: nice)
                ? try await Self.run(URL(fileURLWithPath: nice), ["-n", "19", swiftc] + arguments)
                : try await Self.run(URL(fileURLWithPath: swiftc), arguments)
            await CompilerSlots.shared.release()
            return output
        } catch {
            await CompilerSlots.shared.release()
            throw error
        }
    }
}
