import Testing

@testable import SandglassHost

/// The host's account of what it holds on disk for each extension's downloads.
@Suite("Download ledger")
struct DownloadLedgerTests {
    @Test("a file is charged at its size, refused past the limit with nothing changed, and released when removed; a rename keeps it")
    func accounting() {
        let ledger = DownloadLedger()
        #expect(ledger.admit("/t/a.part", size: 3_000, for: "x", limit: 4_000) == nil)
        #expect(ledger.admit("/t/b.part", size: 500, for: "x", limit: 4_000) == nil)
        // Growing a file charges its new size, not the sum of its sizes.
        #expect(ledger.admit("/t/b.part", size: 1_000, for: "x", limit: 4_000) == nil)
        #expect(ledger.held(by: "x") == 4_000)
        let refusal = ledger.admit("/t/b.part", size: 1_001, for: "x", limit: 4_000)
        #expect(refusal?.contains("already holds 3000 bytes of other downloads for x") == true, "\(refusal ?? "admitted")")
        #expect(ledger.held(by: "x") == 4_000, "a refusal changes nothing")
        #expect(
            ledger.admit("/t/c.part", size: 5_000, for: "x", limit: 4_000)?.contains("over the 4000 that x's container may hold") == true)
        // Another extension's downloads are its own.
        #expect(ledger.admit("/t/d.part", size: 4_000, for: "y", limit: 4_000) == nil)
        ledger.moved("/t/a.part", to: "/t/a.body")
        #expect(ledger.held(by: "x") == 4_000)
        ledger.removed("/t/a.part")
        #expect(ledger.held(by: "x") == 4_000, "the old name is no longer charged")
        ledger.removed("/t/a.body")
        #expect(ledger.held(by: "x") == 1_000)
        ledger.removed("/t/b.part")
        #expect(ledger.held(by: "x") == 0)
        #expect(ledger.held(by: "y") == 4_000)
    }
}
