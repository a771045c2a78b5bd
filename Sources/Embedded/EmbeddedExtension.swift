import Foundation
import Glibc
import WidgetKit

/// What provider code of an embedded widget asks for where an extension's process would read
/// its environment: the container, and the run clock. (An embedded extension shares the test's
/// process: its `Date()` is the wall clock and its `HOME` the test's.)
package enum EmbeddedExtension {
    /// The extension's container (`SANDGLASS_CONTAINER`), in provider code run embedded; nil elsewhere.
    package static var container: String? {
        InProcessRuntime.servingEnvironment?["SANDGLASS_CONTAINER"]
    }

    /// The pid the host recorded for the instance whose provider code asks (what `getpid()`
    /// says in an extension's process), in provider code run embedded; nil elsewhere. State an
    /// example keeps for the life of its process (a `static let shared` session) is kept by it:
    /// a relaunched instance, in the same container, starts without it, as a new process does.
    package static var processIdentifier: Int32? {
        environment(processIdentifierVariable).flatMap { Int32($0) }
    }

    /// Where ``EmbeddedLauncher`` tells an instance its pid, beside the host's variables.
    static let processIdentifierVariable = "SANDGLASS_EMBEDDED_PID"

    /// The variable `name` the host set for the extension, in provider code run embedded (what
    /// an extension's process reads from its environment); nil elsewhere.
    package static func environment(_ name: String) -> String? {
        InProcessRuntime.servingEnvironment?[name]
    }

    /// What the app wrote to app group `group`'s defaults (`UserDefaults(suiteName:)` in an
    /// extension's process, whose suites an embedded extension cannot have: they would be the
    /// test process's): the suite's file in the group's container, `Library/Preferences/<group>.plist`,
    /// read now. Nil when the extension's entitlements do not declare the group.
    package static func groupDefaults(_ group: String) -> [String: Any]? {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) else { return nil }
        guard let data = try? Data(contentsOf: container.appendingPathComponent("Library/Preferences/\(group).plist")) else { return [:] }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] ?? [:]
    }

    /// Now on the host's run clock, in provider code run embedded on a virtual clock (what the
    /// clock shim makes `Date()` say in an extension's process); else `Date()`.
    package static var now: Date {
        now(page: InProcessRuntime.servingEnvironment?["SANDGLASS_CLOCK_PAGE"])
    }

    /// The run clock of the extension whose provider code asks, to read later where ``now``
    /// cannot tell whose code runs: in a completion called from a `CLLocationManager` delegate
    /// callback, on the main queue.
    package static var clock: @Sendable () -> Date {
        let page = InProcessRuntime.servingEnvironment?["SANDGLASS_CLOCK_PAGE"]
        return { now(page: page) }
    }

    /// Now on the clock whose page is at `path`; `Date()` without one.
    private static func now(page path: String?) -> Date {
        guard let path, let offset = realtimeOffset(page: path) else {
            return Date()
        }
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let nanoseconds = Int64(monotonic.tv_sec) * 1_000_000_000 + Int64(monotonic.tv_nsec) + offset
        return Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
    }

    /// The offset the host publishes in its clock page (`sg_clock_page.h`: magic, version, the
    /// offset at byte 16), or nil when the page cannot be read.
    private static func realtimeOffset(page path: String) -> Int64? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let map = mmap(nil, 4096, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else { return nil }
        defer { munmap(map, 4096) }
        guard map.load(as: UInt64.self) == 0x314b_434f_4c43_4753 else { return nil }
        return map.load(fromByteOffset: 16, as: Int64.self)
    }
}
