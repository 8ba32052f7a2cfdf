import Testing

@testable import ReceiptCodegen

/// What a generation's dialect draws, and that the agreement proof sees all of it.
struct DialectTests {
    /// Each list of seeds AgreementTests compiles — the real receipts', the minted and tampered receipts' — draws on
    /// its own both spellings of every rewrite and every predicate, mixer and codec: each half of the agreement proof
    /// covers every dialect feature.
    @Test(arguments: [AgreementTests.realSeeds, AgreementTests.mintedSeeds])
    func theAgreementSeedsCoverEveryDialectFeature(seeds: [Int]) {
        let dialects = seeds.map { Dialect.of(seed: AgreementTests.seed($0)) }
        let flags: [(String, (Dialect) -> Bool)] = [
            ("castBinding", \.castBinding), ("plainCount", \.plainCount), ("wideZero", \.wideZero),
            ("maskedByte", \.maskedByte), ("arrayCall", \.arrayCall), ("keyFirst", \.keyFirst), ("mirrorComparisons", \.mirrorComparisons),
            ("splitGuards", \.splitGuards), ("negatedIfs", \.negatedIfs), ("countForEmpty", \.countForEmpty),
            ("emptyInitializer", \.emptyInitializer), ("expandUpdates", \.expandUpdates), ("typedSlices", \.typedSlices),
        ]
        for (name, flag) in flags {
            #expect(Set(dialects.map(flag)).count == 2, "\(name)")
        }
        let predicates = dialects.flatMap(\.predicates)
        #expect(Set(predicates.map(\.identity)) == [0, 1, 2, 3])
        #expect(Set(predicates.map(\.odd)) == [0, 1, 2])
        #expect(Set(predicates.map(\.test)) == [0, 1, 2])
        #expect(Set(predicates.map(\.grouped)).count == 2 && Set(predicates.map(\.constantFirst)).count == 2)
        // The powers that group: fourth powers and cubes, both ways.
        #expect(Set(predicates.filter { $0.identity >= 2 }.map(\.grouped)).count == 2)
        #expect(Set(dialects.map(\.intSpelling)) == [0, 1, 2])
        let rounds = dialects.map(\.rounds)
        #expect(Set(rounds.flatMap(\.rotations)) == Set(0..<12))
        #expect(Set(rounds.map(\.choice)) == Set(0..<4) && Set(rounds.map(\.majority)) == Set(0..<5))
        for chance in [\Dialect.Rounds.groupSum, \.groupXor, \.splitSchedule] {
            #expect(Set(rounds.map { $0[keyPath: chance] }) == [20, 50, 80])
        }
        #expect(Set(dialects.flatMap(\.mixers)) == Set(0..<7))
        #expect(Set(dialects.flatMap(\.codecs)) == Set(0..<7))
        #expect(Set(dialects.flatMap(\.keyMixes)) == Set(0..<6))
        #expect(Set(dialects.flatMap(\.chunkLoops)) == [0, 1, 2])
        #expect(Set(dialects.map(\.shift)) == [0, 1, 2])
    }
}
