import Foundation
import ReceiptKitTesting
import Testing

/// The tests' way to run a child: its output, its status, and a time limit that ends a child that hangs.
@Suite("Child processes")
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("the output, standard error interleaved, the exit status, and standard input as given")
    func outputStatusAndInput() async throws {
        let output = try await ChildProcess.run(Self.shell, ["-c", "cat; echo err >&2; exit 3"], input: Data("in\n".utf8))
        #expect(output.status == 3)
        #expect(output.text == "in\nerr\n")
    }

    @Test("a child past its time limit is killed and named in the error")
    func aHangingChildIsKilled() async throws {
        let started = ContinuousClock.now
        do {
            // Not `exec`: the shell waits for its sleep, which the time limit must end too (the child's group).
            _ = try await ChildProcess.run(Self.shell, ["-c", "echo waiting; sleep 60; echo done"], timeLimit: .seconds(1))
            Issue.record("a child that sleeps for 60 s returned within its 1 s limit")
        } catch let timeout as ChildProcess.Timeout {
            #expect(timeout.command == "/bin/sh -c echo waiting; sleep 60; echo done")
            #expect(timeout.output == "waiting\n")
        }
        // SIGTERM ends it at once (SIGKILL would come 5 s later, and the output's grace after that).
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test("a child ended by a signal reports the signal's number, whatever this process does with it")
    func aSignalIsItsNumber() async throws {
        #expect(try await ChildProcess.run(Self.shell, ["-c", "kill -PIPE $$"]).status == 13)
        #expect(try await ChildProcess.run(Self.shell, ["-c", "kill -KILL $$"]).status == 9)
    }

    @Test("a program that cannot be started is an error that names it")
    func aMissingProgram() async throws {
        do {
            _ = try await ChildProcess.run(URL(fileURLWithPath: "/nonexistent/program"), ["x"])
            Issue.record("a program that does not exist ran")
        } catch let failure as ChildProcess.SpawnFailure {
            #expect(failure.command == "/nonexistent/program x")
            #expect(failure.errno == ENOENT)
        }
    }

    @Test("a child's exit ends the run even while a process it started still holds the output open")
    func theExitNotTheEndOfTheOutput() async throws {
        let started = ContinuousClock.now
        let output = try await ChildProcess.run(Self.shell, ["-c", "sleep 60 & echo started"])
        #expect(output.status == 0)
        #expect(output.text == "started\n")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
