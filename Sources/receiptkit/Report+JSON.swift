import _ReceiptKitShared
import ReceiptKit

extension Outcome.Report {
    /// The report as one JSON line: the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` makes of
    /// the `Encodable` form, written directly (keys in byte order), with the receipt from
    /// ``AppReceipt/verifyReceiptJSON()``'s writer.
    func jsonLine() -> [UInt8] {
        var json = JSONWriter(capacity: 1024 + 640 * (self.receipt?.inAppPurchases.count ?? 0))
        self.write(to: &json)
        json.bytes.append(UInt8(ascii: "\n"))
        return json.bytes
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        if let anchor = self.anchor {
            json.key("anchor")
            json.string(anchor)
        }
        if let environment = self.environment {
            json.key("environment")
            json.string(environment)
        }
        if let error = self.error {
            json.key("error")
            json.beginObject()
            json.key("code")
            json.string(error.code)
            json.key("reason")
            json.string(error.reason)
            json.endObject()
        }
        if let file = self.file {
            json.key("file")
            json.string(file)
        }
        if let line = self.line {
            json.key("line")
            json.integer(Int64(line))
        }
        json.key("reasons")
        json.beginArray()
        for reason in self.reasons {
            json.string(reason)
        }
        json.endArray()
        if let receipt = self.receipt {
            json.key("receipt")
            receipt.write(to: &json)
        }
        json.key("valid")
        json.bool(self.valid)
        json.endObject()
    }
}
