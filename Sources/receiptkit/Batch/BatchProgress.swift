import Foundation
import _ReceiptKitShared

/// The progress of a batch: done, total when known, rate and time left — on a terminal one line redrawn at most
/// five times a second, otherwise (a log, a pipe) a new line `receiptkit: …` every ten seconds.
struct BatchProgress {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    private let inPlace: Bool
    private let interval: Duration
    /// Whether a line was drawn in place (and needs a line feed before what follows).
    private(set) var drawn = false

    init(inPlace: Bool = true) {
        self.start = self.clock.now
        self.lastDrawn = self.start
        self.inPlace = inPlace
        self.interval = inPlace ? .milliseconds(200) : .seconds(10)
    }

    var elapsed: Double { DurationConversion.seconds(self.clock.now - self.start) }

    /// Draws the line when the interval has passed since the last time.
    mutating func tick(done: Int, total: Int?) {
        let now = self.clock.now
        guard now - self.lastDrawn >= self.interval else { return }
        self.lastDrawn = now
        let line = Self.line(done: done, total: total, seconds: DurationConversion.seconds(now - self.start))
        if self.inPlace {
            self.drawn = true
            StandardError.write("\r" + line + "\u{1B}[K")
        } else {
            StandardError.write("receiptkit: " + line + "\n")
        }
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
