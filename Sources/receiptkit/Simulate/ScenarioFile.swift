import Foundation
import AppStoreServerAPISimulator
import ArgumentParser
import _ReceiptKitShared

/// A scenario read from a file, or the exit status and message that say why it could not be.
enum ScenarioFile {
    static func read(_ path: String) throws -> SimulationScenario {
        let bytes: [UInt8]
        do {
            bytes = try CappedFileReader.contents(atPath: path, maximumSize: SimulationScenario.maximumBytes)
        } catch {
            StandardError.write("receiptkit: \(error.reason)\n")
            throw ExitStatus.unreadable.exitCode
        }
        do {
            return try SimulationScenario(json: bytes)
        } catch {
            StandardError.write("receiptkit: \(path): \(error.code.rawValue): \(error.reason)\n")
            throw ExitStatus.malformed.exitCode
        }
    }

    /// The timeline of `scenario` from `start`, or exit 65 naming the event that cannot happen.
    static func timeline(_ scenario: SimulationScenario, path: String, start: Date, seed: UInt64) throws -> ScenarioTimeline {
        do {
            return try ScenarioTimeline(scenario, start: start, seed: seed)
        } catch {
            StandardError.write("receiptkit: \(path): \(error.code.rawValue): \(error.reason)\n")
            throw ExitStatus.malformed.exitCode
        }
    }
}

extension ScenarioFile {
    /// The timeline from `start`, else the scenario's own start, else placed so that its last event is `now`
    /// (periods of months and years differ in length, so it is placed twice).
    static func placedTimeline(
        _ scenario: SimulationScenario, path: String, start: Date?, now: Date, seed: UInt64
    ) throws -> ScenarioTimeline {
        if let start = start ?? scenario.start {
            return try self.timeline(scenario, path: path, start: start, seed: seed)
        }
        var timeline = try self.timeline(scenario, path: path, start: now, seed: seed)
        for _ in 0..<2 where timeline.end != now {
            let start = timeline.start.addingTimeInterval(now.timeIntervalSince(timeline.end))
            timeline = try self.timeline(scenario, path: path, start: start, seed: seed)
        }
        return timeline
    }
}
