import Foundation
import _ReceiptKitShared

/// The progress line of a batch on a terminal: done, total when known, rate and time left, redrawn at most five
/// times a second.
struct BatchProgress {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    private(set) var drawn = false

    init() {
        self.start = self.clock.now
        self.lastDrawn = self.start
    }

    var elapsed: Double { DurationConversion.seconds(self.clock.now - self.start) }

    /// Redraws the line when 200 ms have passed since the last time.
    mutating func tick(done: Int, total: Int?) {
        let now = self.clock.now
        guard now - self.lastDrawn >= .milliseconds(200) else { return }
        self.lastDrawn = now
        self.drawn = true
        StandardError.write("\r" + Self.line(done: done, total: total, seconds: DurationConversion.seconds(now - self.start)) + "\u{1B}[K")
    }

    /// `1,234/10,000 receipts  5,210/s  ETA 0:02` (no total and ETA while the total is unknown).
    static func line(done: Int, total: Int?, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = Self.grouped(done)
        if let total { text += "/" + Self.grouped(total) }
        text += " receipts  " + Self.grouped(Int(rate.rounded())) + "/s"
        if let total, rate > 0, total >= done {
            text += "  ETA " + Self.duration(Double(total - done) / rate)
        }
        return text
    }

    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return "-" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let ss = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 { return "\(hours):" + (minutes < 10 ? "0\(minutes)" : "\(minutes)") + ":" + ss }
        return "\(minutes):" + ss
    }
}
