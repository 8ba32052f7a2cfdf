import Foundation
@testable import ReceiptKitTesting
import Testing

/// A child the tests talk to while it runs (`receiptkit serve`, a browser), started without Foundation's `Process`.
@Suite("Spawned processes")
struct SpawnedProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("standard output and error apart, standard input written, the environment and directory as given")
    func streamsEnvironmentAndDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-spawn-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try SpawnedProcess(
            Self.shell, ["-c", #"read line; echo "out $line $RK_ONLY ${HOME:-none}"; pwd; echo err >&2; exit 4"#],
            environment: ["RK_ONLY": "set", "PATH": "/usr/bin:/bin"], directory: directory,
            standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        process.write(Data("in\n".utf8))
        process.closeInput()
        let output = String(decoding: process.readToEnd(.output), as: UTF8.self)
        let error = String(decoding: process.readToEnd(.error), as: UTF8.self)
        #expect(process.waitUntilExit() == 4)
        #expect(process.terminationReason == .exit)
        #expect(!process.isRunning)
        // HOME is not passed on: the environment given replaces this process's.
        let real = directory.resolvingSymlinksInPath().path
        #expect(output == "out in set none\n\(real)\n" || output == "out in set none\n\(directory.path)\n", "\(output)")
        #expect(error == "err\n")
    }

    @Test("a descriptor this process left inheritable is not the child's: it has its three standard streams only")
    func onlyTheStandardStreamsAreInherited() async throws {
        // Opened without O_CLOEXEC, as a library might: Foundation's Process would have to find and close it.
        let stray = open("/dev/null", O_RDONLY)
        try #require(stray >= 0)
        defer { close(stray) }
        let list = "ls /proc/self/fd"  // ls's own listing descriptor is 3
        let spawned = try SpawnedProcess(Self.shell, ["-c", list], standardOutput: .pipe)
        let listed = String(decoding: spawned.readToEnd(.output), as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(spawned.waitUntilExit() == 0)
        #expect(Set(listed).isSubset(of: [0, 1, 2, 3]), "\(listed)")
        let run = try await ChildProcess.run(Self.shell, ["-c", list])
        let alsoListed = run.text.split(separator: "\n").compactMap { Int($0) }
        #expect(Set(alsoListed).isSubset(of: [0, 1, 2, 3]), "\(run.text)")
    }

    @Test("a signal ends the child: its number and an uncaught-signal reason; signals after the exit go nowhere")
    func terminateAndSignals() async throws {
        let process = try SpawnedProcess(Self.shell, ["-c", "echo ready; exec sleep 60"], standardOutput: .pipe)
        #expect(String(decoding: process.readChunk(.output), as: UTF8.self) == "ready\n")
        #expect(process.isRunning)
        #expect(!process.waitUntilExit(seconds: 0.2))
        process.terminate()
        #expect(await process.exit() == SIGTERM)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.waitUntilExit(seconds: 0))
        process.signal(SIGKILL)  // reaped: nothing is sent, the status stays
        #expect(process.terminationStatus == SIGTERM)
    }

    @Test("a program that cannot be started is an error that names it")
    func aMissingProgram() throws {
        let failure = #expect(throws: ChildProcess.SpawnFailure.self) {
            _ = try SpawnedProcess(URL(fileURLWithPath: "/nonexistent/receiptkit-\(UUID())"), [])
        }
        #expect(failure?.errno == ENOENT)
    }

    @Test("a write to a pipe nobody reads fails quietly and leaves the calling thread's signal mask as it was")
    func aWriteToAClosedPipeRestoresTheMask() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        var before = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &before)
        PosixSpawn.write(Data(repeating: 0x61, count: 100_000), to: fds[1])
        var after = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &after)
        #expect(sigismember(&after, SIGPIPE) == sigismember(&before, SIGPIPE))
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0, "the SIGPIPE the write raised was taken")
    }
}
