import Foundation
@testable import ReceiptService
import Testing

/// Every metric series the documentation names is in `GET /metrics` from the start, at 0 — a dashboard or an alert
/// on a rate sees it before its first event. The series are read from the README and the ReceiptService catalog, so
/// a series documented later is held to it too.
@Suite("Documented metric series exist before their first event")
struct MetricSeriesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One series as the exposition names it: the metric and its labels.
    struct Series: Hashable, CustomStringConvertible {
        let name: String
        let labels: [String: String]
        var description: String {
            self.name + "{" + self.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
        }
    }

    /// The exposition's samples by series (histogram buckets and comments skipped).
    static func samples(_ exposition: String) -> [Series: String] {
        var samples: [Series: String] = [:]
        for line in exposition.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            let key = line[..<space]
            let value = String(line[line.index(after: space)...])
            guard let brace = key.firstIndex(of: "{") else {
                samples[Series(name: String(key), labels: [:])] = value
                continue
            }
            var labels: [String: String] = [:]
            for pair in key[key.index(after: brace)..<key.index(before: key.endIndex)].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
            }
            samples[Series(name: String(key[..<brace]), labels: labels)] = value
        }
        return samples
    }

    /// The series a text documents: `receiptkit_…_total{label="a"|"b",other="c"}` is every combination of the
    /// values listed (`…` stands for values not listed); a name without labels is at least one series of it.
    static func documented(_ text: String) throws -> [Series] {
        let pattern = try NSRegularExpression(
            pattern: #"receiptkit_[a-z_]*(_total|build_info|_open|_enabled|_entries|_bytes)(\{[^}]*\})?"#)
        var series: [Series] = []
        let range = NSRange(text.startIndex..., in: text)
        for match in pattern.matches(in: text, range: range) {
            guard let whole = Range(match.range, in: text) else { continue }
            let reference = text[whole]
            guard let brace = reference.firstIndex(of: "{") else {
                series.append(Series(name: String(reference), labels: [:]))
                continue
            }
            let name = String(reference[..<brace])
            var combinations: [[String: String]] = [[:]]
            let body = reference[reference.index(after: brace)..<reference.index(before: reference.endIndex)]
            // Each label: its name, `=`, and its values — quoted, separated by `|`, `…` for those not listed.
            let labels = try NSRegularExpression(pattern: #"([a-z_]+)=((?:"[^"]*"|…|\|)+)"#)
            let labelText = String(body)
            for label in labels.matches(in: labelText, range: NSRange(labelText.startIndex..., in: labelText)) {
                guard let name = Range(label.range(at: 1), in: labelText), let list = Range(label.range(at: 2), in: labelText)
                else { continue }
                let values = labelText[list].split(separator: "|").filter { $0.hasPrefix("\"") }.map { String($0.dropFirst().dropLast()) }
                combinations = combinations.flatMap { combination in
                    values.map { value in combination.merging([String(labelText[name]): value]) { $1 } }
                }
            }
            series += combinations.map { Series(name: name, labels: $0) }
        }
        return series
    }

    static func documentation() throws -> [(file: String, text: String)] {
        let catalog = Self.repository.appendingPathComponent("Sources/ReceiptService/Docs.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        return try (["README.md"] + articles.map { "Sources/ReceiptService/Docs.docc/\($0)" }).map { file in
            (file, try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8))
        }
    }

    @Test("every series the README and the catalog name is exposed at 0 by a service that has answered nothing")
    func documentedSeriesExistFromTheStart() throws {
        // With one app the notification backfill covers, as the documentation's examples name it: its series are
        // there from the start too.
        let metrics = ServiceMetrics()
        metrics.trackNotifications(of: [.init(environment: "Production", bundleIdentifier: "com.example.app")])
        // …and with the forwarding target the documentation names.
        metrics.trackForwarding(of: ["entitlements"])
        let samples = Self.samples(String(decoding: metrics.exposition(), as: UTF8.self))
        var checked = 0
        for (file, text) in try Self.documentation() {
            for series in try Self.documented(text) {
                checked += 1
                if series.labels.isEmpty {
                    #expect(samples.keys.contains { $0.name == series.name }, "\(file): \(series.name) is not exposed")
                } else if series.name != "receiptkit_build_info" {
                    // A counter prints 0, a gauge 0.0.
                    #expect(samples[series].flatMap(Double.init) == 0, "\(file): \(series) is not exposed at 0")
                }
            }
        }
        // The README alone lists the rejections, the connection closes and the API calls and refreshes by label.
        #expect(checked >= 36)
    }

    @Test("the documented-series reader expands label alternatives and skips the ellipsis")
    func theReaderExpandsAlternatives() throws {
        let series = try Self.documented(#"`receiptkit_x_total{a="1"|"2"|…,b="y"}` and receiptkit_z_open"#)
        #expect(series.map(\.description) == [#"receiptkit_x_total{a="1",b="y"}"#, #"receiptkit_x_total{a="2",b="y"}"#, "receiptkit_z_open{}"])
    }

    @Test("a counter the service counts later is the series exposed at 0, not a second one")
    func countingKeepsOneSeries() {
        let metrics = ServiceMetrics()
        metrics.countHTTPRejection(413)
        metrics.countClosedConnection(reason: .bodyTimeout)
        let samples = Self.samples(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(samples[Series(name: "receiptkit_http_rejections_total", labels: ["code": "413"])] == "1")
        #expect(samples[Series(name: "receiptkit_http_rejections_total", labels: ["code": "408"])] == "0")
        #expect(samples[Series(name: "receiptkit_connections_closed_total", labels: ["reason": "body_timeout"])] == "1")
    }
}
