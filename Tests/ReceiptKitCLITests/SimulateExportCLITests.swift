import Foundation
import ReceiptKitTesting
import Testing

/// `receiptkit simulate export`: a ledger's history as a scenario (issue 47 §3). A scenario played into
/// `receiptkit serve` and exported back tells the same story — the same notifications, in the same order, at the same
/// offsets, ending in the same states — with none of the ledger's identifiers.
@Suite("receiptkit simulate export", .serialized)
struct SimulateExportCLITests {
    static let bundle = "com.example.receiptkit"
    static let product = "com.example.pro.monthly"

    /// One line of `simulate check`'s timeline: the moment, the notification type, the customer.
    struct Line: Equatable, CustomStringConvertible {
        let offset: Int
        let type: String
        let customer: String
        var description: String { "+\(self.offset)s \(self.type) \(self.customer)" }
    }

    /// `simulate check`'s timeline with moments as seconds after the first and customers renamed c1, c2, … in order of
    /// appearance, and the end states by those names: what a scenario tells, whatever its start and names.
    static func story(_ output: String) -> (lines: [Line], states: [String: String]) {
        let withFraction = ISO8601DateFormatter(), whole = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var names: [String: String] = [:]
        func name(_ customer: String) -> String {
            if let known = names[customer] { return known }
            names[customer] = "c\(names.count + 1)"
            return names[customer] ?? ""
        }
        var lines: [Line] = [], states: [String: String] = [:], first: Date?
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count == 4, let date = withFraction.date(from: words[0]) ?? whole.date(from: words[0]) {
                let start = first ?? date
                first = start
                lines.append(Line(offset: Int(date.timeIntervalSince(start).rounded()), type: words[1], customer: name(words[2])))
            } else if line.hasPrefix("  "), words.count == 3, words[1] == "\(Self.product):" {
                states[name(words[0])] = words[2]
            }
        }
        return (lines, states)
    }

    @Test("a played ledger exported: the same notifications in order at the same offsets and end states, none of its ids; one customer by id; an unknown id exits 1")
    func aPlayedLedgerExportsTheSameStory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-export-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ca = directory.appendingPathComponent("ca"), out = directory.appendingPathComponent("out")
        #expect(try await CLIRunner.run(["mint", "jws-ca", "--out", ca.path]).status == 0)
        let database = "sqlite:" + directory.appendingPathComponent("ledger.sqlite").path
        let config = directory.appendingPathComponent("serve.json")
        try Data(
            #"{"database": "\#(database)", "anchors": ["\#(ca.appendingPathComponent("root.cer").path)"], "notification_max_age_seconds": 31536000}"#
                .utf8
        ).write(to: config)
        let server = try ServeCLITests.Server(["--config", config.path, "--log-level", "error"])
        defer { server.process.terminate() }
        let play = try await ScenarioPlay.start(
            [
                "--scenario", SimulateCLITests.renewals, "--notify", "http://127.0.0.1:\(server.port)/notifications/v2",
                "--ca", ca.path, "--output", out.path, "--speed", "1e12",
            ], in: directory)
        defer { play.process.terminate() }
        #expect(play.notifications == 13 && play.acknowledged == 13 && play.dropped == 0, "\(play.text)")
        play.process.terminate()
        // One process owns an SQLite ledger: the export opens it once serve has stopped.
        #expect(server.stop() == 0)

        let exported = directory.appendingPathComponent("exported.json")
        let export = try await CLIRunner.run([
            "simulate", "export", "--database", database, "--bundle-id", Self.bundle, "--environment", "Sandbox", "--all",
            "--seed", "5", "--output", exported.path,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr.contains("exported: 4 customers, 13 events, 4 expectations; 0 left out"), "\(export.stderr)")
        let file = try String(contentsOf: exported, encoding: .utf8)
        // None of the ledger's identifiers: not the customers' names, their app account token or transaction ids.
        #expect(!file.contains("7e3fb20b-4cdb-47cc-936d-99d65f608138"))
        for customer in ["ana", "ben", "cyd", "dot"] {
            #expect(!file.contains(#""\#(customer)""#), "\(customer)")
            let original = try #require(play.originalTransactionID(of: customer, product: Self.product), "\(play.text)")
            #expect(!file.contains(original), "\(customer): \(original)")
        }
        #expect(file.contains(#""bundle_id": "com.example.receiptkit""#) && file.contains(#""product_id": "com.example.pro.monthly""#))

        // The story is the scenario's.
        let told = try await CLIRunner.run(["simulate", "check", SimulateCLITests.renewals])
        let retold = try await CLIRunner.run(["simulate", "check", exported.path])
        #expect(told.status == 0 && retold.status == 0, "\(told.stderr) \(retold.stderr)")
        let (original, again) = (Self.story(told.stdout), Self.story(retold.stdout))
        #expect(original.lines.count == 13, "\(told.stdout)")
        #expect(again.lines == original.lines, "\(retold.stdout)")
        #expect(original.states.count == 4 && again.states == original.states, "\(retold.stdout)")

        // One customer, by a transaction id of theirs, on standard output: ben's purchase, failure and recovery.
        let ben = try #require(play.originalTransactionID(of: "ben", product: Self.product))
        let one = try await CLIRunner.run([
            "simulate", "export", "--database", database, "--bundle-id", Self.bundle, "--environment", "Sandbox",
            "--transaction-id", ben,
        ])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.contains("exported: 1 customers, 3 events, 1 expectations; 0 left out"), "\(one.stderr)")
        let events = try #require(
            (try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])?["events"] as? [[String: Any]],
            "\(one.stdout)")
        #expect(events.compactMap { $0["event"] as? String } == ["purchase", "billing_failure", "billing_recovery"])
        #expect(Set(events.compactMap { $0["customer"] as? String }) == ["customer-1"])

        // An id no customer has, in the other environment too: nothing to write, each named.
        for environment in ["Sandbox", "Production"] {
            let none = try await CLIRunner.run([
                "simulate", "export", "--database", database, "--bundle-id", Self.bundle, "--environment", environment,
                "--transaction-id", environment == "Sandbox" ? "1999999999999999" : ben,
            ])
            #expect(none.status == 1, "\(none.stderr)")
            #expect(none.stdout.isEmpty)
            let id = environment == "Sandbox" ? "1999999999999999" : ben
            #expect(none.stderr.contains("no customer of \(Self.bundle) (\(environment)) has transaction \(id)"), "\(none.stderr)")
            #expect(none.stderr.contains("receiptkit: no customer to write"), "\(none.stderr)")
        }
    }

    @Test(
        "usage mistakes exit 64 with the reason",
        arguments: [
            (["--all", "--transaction-id", "1"], "not both"),
            ([], "not both"),
            (["--all", "--environment", "Xcode"], "--environment is Production or Sandbox"),
            (["--all", "--limit", "0"], "--limit is 1 to"),
            (["--all", "--bundle-id", ""], "--bundle-id must not be empty"),
        ])
    func usageMistakes(arguments: [String], message: String) async throws {
        let run = try await CLIRunner.run(["simulate", "export", "--database", "sqlite::memory:", "--bundle-id", Self.bundle] + arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("a database that cannot be opened exits 69")
    func anUnreachableDatabase() async throws {
        let run = try await CLIRunner.run([
            "simulate", "export", "--database", "postgres://nobody@127.0.0.1:1/none?sslmode=disable", "--bundle-id", Self.bundle,
            "--all",
        ])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
