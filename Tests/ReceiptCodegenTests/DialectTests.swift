import Testing

@testable import ReceiptCodegen

/// What a generation's dialect draws, and that the agreement proof sees all of it.
struct DialectTests {
    /// The real-receipt generations of AgreementTests, between their entry points, carry both variants of every
    /// primitive family: each implementation runs on Apple's own receipts and chains.
    @Test func theRealReceiptSeedsRunEveryPrimitiveVariant() throws {
        var drawn: [String: Set<Int>] = [:]
        for index in AgreementTests.realSeeds.indices {
            let validator = try ReceiptCodegenerator.generateForHarness(AgreementTests.realOptions(index))
            #expect(validator.primitiveVariants.count == 3)
            for entry in validator.primitiveVariants {
                for (family, variant) in entry { drawn[family, default: []].insert(variant) }
            }
        }
        for (family, templates) in PrimitiveCatalog.variants {
            #expect(drawn[family] == Set(templates.indices), "\(family): \(drawn[family] ?? [])")
        }
    }

    /// The minted and tampered receipts' seeds of AgreementTests draw between them both spellings of every rewrite
    /// and every predicate, mixer and codec: that half of the agreement proof, with its faults and refusals, covers
    /// every dialect feature.
    @Test func theMintedReceiptSeedsCoverEveryDialectFeature() {
        let seeds = AgreementTests.mintedSeeds
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
