import AppStoreServerAPI

/// A request the mirror refuses with Apple's error answer (a parameter Apple would refuse, an id it does not know).
struct MirrorRefusal: Error {
    let answer: APIErrorAnswer

    init(_ answer: APIErrorAnswer) {
        self.answer = answer
    }
}
