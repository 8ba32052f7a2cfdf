import AppStorePKI
import Foundation
import ReceiptKit
import ReceiptLedger
import ReceiptService
import _ReceiptKitShared

/// Imports a stream of receipts into a ledger as the verifyReceipt service would record them: each validated with
/// the service's anchors and rules (Xcode receipts, allowed apps, decoding limits), recorded under its environment,
/// and a receipt the ledger holds already skipped by its hash before it is validated — so an import stopped for any
/// reason is resumed by running it again.
///
/// `jobs` workers each take the inputs in chunks: read and hash a chunk, ask the ledger which of it is recorded (one
/// statement), validate the rest, and hand the chunk's receipts to the ledger while validating the next chunk. The
/// ledger's group commit writes the receipts in flight together; each chunk is acknowledged only once committed.
/// The database unavailable stops the import after the chunks in flight (what was committed stays); a receipt the
/// database refuses alone is reported (`ledger_error`) and the import goes on.
struct LedgerImport: Sendable {
    var inputs: [ReceiptBatchSource.Input]
    var options: ReceiptBatchSource.Options
    var jobs: Int
    /// Whether the inputs are base64 text (`nil`: detected).
    var base64: Bool?
    /// What the service accepts.
    var accepted: VerifyReceiptConfiguration
    /// When the receipts are seen, and the time of the validations' VPP expiry check.
    var now: Date
    /// Inputs a worker takes at once (the ledger is asked which of them it holds in statements of 200). Two workers'
    /// chunks in flight fill the ledger's group commits: the fewer transactions, the fewer times the index pages
    /// their receipts share are written (the ledger's Measurements).
    var chunkSize = 1000
    /// The most bytes of receipts a chunk holds: a chunk ends at ``chunkSize`` inputs or past this many bytes read,
    /// whichever comes first, so that large receipt files cannot multiply an import's memory.
    var chunkBytes = 32 * 1024 * 1024

    /// A receipt validated and accepted, ready to record.
    struct Accepted: Sendable {
        var item: ReceiptBatchSource.Item
        var result: ReceiptValidationResult
        var receipt: LedgerReceipt
    }

    /// Runs the import into `ledger`, reporting refusals and progress through `tally`.
    func run(into ledger: any Ledger, tally: ImportTally) async {
        BatchValidation.keepFreedMemory()
        let inputs = BatchReadAhead(source: ReceiptBatchSource(self.inputs, options: self.options))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, self.jobs) {
                group.addTask { await self.work(inputs: inputs, ledger: ledger, tally: tally) }
            }
        }
    }

    /// One worker: chunk after chunk until the inputs end or the import stops.
    private func work(inputs: BatchReadAhead, ledger: any Ledger, tally: ImportTally) async {
        let validator = ReceiptValidator(
            policy: ReceiptValidationPolicy(anchors: self.accepted.anchors, allowsXcodeReceipts: self.accepted.allowsXcodeReceipts),
            cache: AppStoreTrustCache(),
            decodingConfiguration: self.accepted.decodingConfiguration
        )
        var writing: Task<Void, Never>?
        while tally.stoppedBy == nil {
            var chunk: [Read] = []
            var bytes = 0
            while chunk.count < self.chunkSize, bytes < self.chunkBytes, let (_, item) = inputs.next() {
                let read = Read(item: item, contents: Result { try item.contents() })
                if case .success(let contents?) = read.contents { bytes += contents.count }
                chunk.append(read)
            }
            if chunk.isEmpty { break }
            guard let receipts = await self.prepare(chunk, validator: validator, ledger: ledger, tally: tally) else { break }
            // The previous chunk's writes end before this one's start: at most two chunks in flight per worker.
            await writing?.value
            if tally.stoppedBy != nil { break }
            writing = Task { await Self.record(receipts, into: ledger, tally: tally) }
        }
        await writing?.value
    }

    /// An input and what reading it gave: its bytes, `nil` for a symbolic link to something that is not a file
    /// (skipped, as validate does), or the failure.
    private struct Read {
        var item: ReceiptBatchSource.Item
        var contents: Result<[UInt8]?, any Error>
    }

    /// Hashes and validates a chunk read; the receipts to record, or `nil` when the ledger failed.
    private func prepare(
        _ chunk: [Read], validator: ReceiptValidator, ledger: any Ledger, tally: ImportTally
    ) async -> [Accepted]? {
        var candidates: [(item: ReceiptBatchSource.Item, bytes: [UInt8], hash: String)] = []
        candidates.reserveCapacity(chunk.count)
        for read in chunk {
            let item = read.item
            do {
                guard let contents = try read.contents.get() else { continue }
                let bytes = try ReceiptInput.normalized(
                    contents, base64: item.base64 ?? self.base64, configuration: self.accepted.decodingConfiguration)
                candidates.append((item, bytes, LedgerReceipt.hash(of: bytes)))
            } catch let failure as InputFailure {
                tally.refuse(ImportRefusal(.failed(failure), item: item))
            } catch let error as ReceiptError {
                tally.refuse(ImportRefusal(.failed(InputFailure(error)), item: item))
            } catch {
                tally.refuse(ImportRefusal(.failed(.unreadable("\(error)")), item: item))
            }
        }

        let recorded: Set<String>
        do {
            recorded = try await ledger.recordedReceipts(among: candidates.map(\.hash))
        } catch {
            tally.stop(error)
            return nil
        }
        tally.alreadyRecorded(candidates.count { recorded.contains($0.hash) })

        var receipts: [Accepted] = []
        receipts.reserveCapacity(candidates.count)
        for candidate in candidates where !recorded.contains(candidate.hash) {
            let result: ReceiptValidationResult
            do {
                result = try await validator.validate(candidate.bytes, now: self.now)
            } catch {
                tally.refuse(ImportRefusal(.failed(InputFailure(error)), item: candidate.item))
                continue
            }
            guard result.isValid else {
                tally.refuse(ImportRefusal(.validated(result), item: candidate.item))
                continue
            }
            let bundle = result.receipt.bundleIdentifier ?? ""
            if let allowed = self.accepted.allowedBundleIdentifiers, !allowed.contains(bundle) {
                tally.refuse(ImportRefusal(refusing: result, reason: "bundle_id_not_allowed", item: candidate.item))
                continue
            }
            let receipt = LedgerReceipt(
                result.receipt, bytes: candidate.bytes, hash: candidate.hash, environment: result.appStoreEnvironment,
                seenAt: self.now)
            receipts.append(Accepted(item: candidate.item, result: result, receipt: receipt))
        }
        return receipts
    }

    /// Records a chunk's receipts concurrently, so that the ledger commits them together.
    private static func record(
        _ receipts: [Accepted], into ledger: any Ledger, tally: ImportTally
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for accepted in receipts {
                group.addTask {
                    do throws(LedgerError) {
                        tally.recorded(inserted: try await ledger.record(accepted.receipt).receiptInserted)
                    } catch where error.code == .stringContainsNUL {
                        // Refused alike by every backend before any write, as the service refuses it (21002).
                        tally.refuse(ImportRefusal(refusing: accepted.result, reason: "string_contains_nul", item: accepted.item))
                    } catch where !error.isRetryable {
                        // The database refused this receipt alone (the batch's others are written without it):
                        // running the import again would stop on it again.
                        tally.refuse(ImportRefusal(refusing: accepted.result, reason: "ledger_error", item: accepted.item))
                    } catch {
                        tally.stop(error)
                    }
                }
            }
        }
    }
}
