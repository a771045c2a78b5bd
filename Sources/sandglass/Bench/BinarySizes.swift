import Foundation

/// The sizes of the example executables and whether ICU is linked into them (its data, `icudt`,
/// makes a static Swift executable about 60 MB bigger), for the page's note on cold starts.
enum BinarySizes {
    static let executables = [
        ("HelloWorld", "/HelloWorld"),
        ("Leaderboard", "/Leaderboard.app/PlugIns/LeaderboardWidget.appex/LeaderboardWidget"),
        ("Hanging", "/Hanging.app/PlugIns/HangingWidget.appex/HangingWidget"),
        ("Fleet", "/Fleet.app/PlugIns/FleetAlpha.appex/FleetWidget"),
        ("Downloader", "/Downloader.app/PlugIns/DownloaderWidget.appex/DownloaderWidget")
    ]

    /// One line per executable found under `examples`.
    static func describe(examples: String) -> [String] {
        executables.compactMap { name, path in
            guard let (size, icu) = scan(examples + path) else { return nil }
            return String(
                format: "%@: %.1f MB, %@", name, Double(size) / 1e6,
                icu ? "ICU linked (FoundationInternationalization)" : "no ICU")
        }
    }

    /// The file's size and whether it holds ICU's data (`icudt`), searched in a
    /// read-only mapping, not read into memory: the executables are tens of megabytes each.
    private static func scan(_ path: String) -> (size: Int, icu: Bool)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        defer { munmap(base, size) }
        return (size, contains(Array("icudt".utf8), in: UnsafeRawBufferPointer(start: base, count: size)))
    }

    /// Whether `needle` occurs in `bytes`: `memchr` to each candidate first byte, then `memcmp`.
    private static func contains(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress, !needle.isEmpty, bytes.count >= needle.count else { return false }
        var offset = 0
        let last = bytes.count - needle.count
        while offset <= last {
            guard let hit = memchr(start + offset, Int32(needle[0]), last - offset + 1) else { return false }
            let found = UnsafeRawPointer(hit) - start
            if memcmp(hit, needle, needle.count) == 0 { return true }
            offset = found + 1
        }
        return false
    }
}
