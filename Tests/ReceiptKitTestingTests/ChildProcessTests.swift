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

    /// Whether the process `pid` has ended (gone, or a zombie its new parent has not reaped: a container's first
    /// process may never reap), polled up to 10 s.
    static func gone(_ pid: pid_t) async throws -> Bool {
        for _ in 0..<100 {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            // /proc/PID/stat: "PID (name) STATE …"; Z is a zombie.
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"), stat[close...].dropFirst(2).first == "Z"
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The first line of `output` as a pid.
    static func pid(in output: String) -> pid_t? {
        output.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    @Test("a child past its time limit is killed, with what it started, and named in the error")
    func aHangingChildIsKilled() async throws {
        do {
            // Not `exec`: the shell waits for its sleep, which the time limit must end too (the child's group).
            _ = try await ChildProcess.run(Self.shell, ["-c", "sleep 60 & echo $!; wait; echo done"], timeLimit: .seconds(1))
            Issue.record("a child that sleeps for 60 s returned within its 1 s limit")
        } catch let timeout as ChildProcess.Timeout {
            #expect(timeout.command == "/bin/sh -c sleep 60 & echo $!; wait; echo done")
            #expect(timeout.signal == SIGTERM, "SIGTERM did not end it")
            let sleeper = try #require(Self.pid(in: timeout.output), "\(timeout.output)")
            #expect(!timeout.output.contains("done"))
            #expect(try await Self.gone(sleeper), "the shell's sleep outlived the time limit")
        }
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
        let output = try await ChildProcess.run(Self.shell, ["-c", "sleep 60 & echo $!"])
        #expect(output.status == 0)
        let daemon = try #require(Self.pid(in: output.text), "\(output.text)")
        // Returned while the daemon, holding the output, still runs (it would take 60 s to end the output).
        #expect(kill(daemon, 0) == 0, "the run waited for the daemon to end")
        kill(daemon, SIGKILL)
    }
}
