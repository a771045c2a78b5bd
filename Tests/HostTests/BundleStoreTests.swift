import Foundation
import Glibc
import Testing

@testable import SandglassHost

/// Installing copies the author's bundle into the host's store, as root usually: what the
/// author put in it — setuid bits, FIFOs, devices — must not become the host's doing.
@Suite("Bundle store")
struct BundleStoreTests {
    private let executable = "Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget"

    /// The stored copy of the fixture's bundle, or the error placing it threw.
    private func place(_ fixture: BundleFixture) -> Result<String, any Error> {
        Result { try BundleStore.place(fixture.appPath, identifier: fixture.appIdentifier, in: fixture.path("store")) }
    }

    @Test(
        "an executable with setuid or setgid bits is stored without them, executable by the extension's user",
        arguments: [0o4711, 0o6755, 0o2750])
    func noSetuidCopy(mode: Int) throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle()
        #expect(chmod(fixture.path(executable), mode_t(mode)) == 0)
        let stored = try place(fixture).get()
        var info = stat()
        #expect(stat(stored + "/PlugIns/LeaderboardWidget.appex/LeaderboardWidget", &info) == 0)
        #expect(info.st_mode & (S_ISUID | S_ISGID | S_ISVTX) == 0, "stored with mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(info.st_mode & 0o005 == 0o005, "the extension's user can run it")
        // The original keeps its own mode.
        #expect(stat(fixture.path(executable), &info) == 0 && Int(info.st_mode & 0o7777) == mode)
    }

    @Test("a link's target, read as the copy reads it, stays within the bundle: relative, never above its root")
    func linkTargets() {
        #expect(BundleStore.staysInside("LeaderboardWidget", depth: 2))
        #expect(BundleStore.staysInside("../Resources/./x", depth: 1))
        #expect(BundleStore.staysInside("../../Info.plist", depth: 2))
        #expect(!BundleStore.staysInside("../../../etc/passwd", depth: 2))
        #expect(!BundleStore.staysInside("a/../../..", depth: 1))
        #expect(!BundleStore.staysInside("/etc/passwd", depth: 3))
    }

    @Test("a FIFO in the bundle is refused, naming it; nothing blocks on it")
    func fifoRefused() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle()
        let fifo = "Leaderboard.app/PlugIns/LeaderboardWidget.appex/Resources/pipe"
        try FileManager.default.createDirectory(
            atPath: fixture.path("Leaderboard.app/PlugIns/LeaderboardWidget.appex/Resources"), withIntermediateDirectories: true)
        #expect(mkfifo(fixture.path(fifo), 0o755) == 0)
        let error = try #require(place(fixture).failure as? BundleError)
        #expect(error.file == fifo && error.message.contains("a FIFO"), "\(error)")
    }

    @Test("a device in the bundle is refused, naming it", .enabled(if: getuid() == 0))
    func deviceRefused() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle()
        let device = "Leaderboard.app/disk"
        #expect(mknod(fixture.path(device), S_IFCHR | 0o644, dev_t((1 << 8) | 3)) == 0) // /dev/null's numbers, 1 and 3
        let error = try #require(place(fixture).failure as? BundleError)
        #expect(error.file == device && error.message.contains("a character device"), "\(error)")
    }

    @Test("an Info.plist that is a FIFO is refused at once, naming it: loading does not wait for a writer")
    func fifoInfoPlist() throws {
        let fixture = try BundleFixture()
        defer { fixture.remove() }
        try fixture.writeStandardBundle()
        let info = fixture.path(fixture.widgetInfoFile)
        try FileManager.default.removeItem(atPath: info)
        #expect(mkfifo(info, 0o644) == 0)
        // Loaded on a thread of its own, so that a reader blocked on the FIFO fails the test
        // rather than hanging it (the test then opens it for writing, which lets the reader go).
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedBox<BundleError?>(nil)
        let appPath = fixture.appPath
        Thread {
            do { _ = try BundleLoader.load(appPath) } catch { outcome.set(error as? BundleError) }
            done.signal()
        }.start()
        let inTime = done.wait(timeout: .now() + 5) == .success
        #expect(inTime, "loading the bundle blocked on its FIFO Info.plist")
        if !inTime {
            let writer = open(info, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            done.wait()
        }
        let error = try #require(outcome.get())
        #expect(error.file == fixture.widgetInfoFile && error.message.contains("is a FIFO"), "\(error)")
    }
}

/// A value set on one thread and read on another.
private final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
