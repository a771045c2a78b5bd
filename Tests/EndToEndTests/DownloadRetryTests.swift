import Foundation
import Glibc
import SandglassHost
import SandglassIPC
import Testing

/// Background downloads to a server that is not there: each attempt fails at once (a refused
/// connection on loopback), and the retries come after the documented backoff on the run clock —
/// on the virtual clock, minutes of backoff pass in no real time at all.
@Suite("Download retries")
struct DownloadRetryTests {
    @Test(
        "a port nobody listens on: each attempt refused at once, retried 1 s, 2 s … 60 s later on the run clock, failed (-1004) after 8 attempts, and the failure delivered",
        arguments: Backend.tested)
    func refusedConnectionsRetryOnTheRunClock(_ backend: Backend) async throws {
        let port = try UnlistenedPort()
        defer { port.close() }
        try await withHost(
            on: backend, apps: [.downloader],
            {
                $0.clock = .virtual
                $0.extensionEnvironment["SANDGLASS_FIXTURE_URL"] = "http://127.0.0.1:\(port.number)/feed"
            }
        ) { host in
            await host.start()
            let failed = await host.advance(by: .seconds(3600)) { $0.name == "download.failed" }
            let failure = try #require(failed, "the download failed for good within an hour of run time")
            #expect(failure.int("code") == -1004, "\(failure.string("error") ?? "")")
            #expect(failure.int("attempts") == 8)

            // The task's attempts, in order: started, retry, started, retry … started, failed.
            let task = failure.int("taskId")
            var attempts: [HostEvent] = []
            for event in await host.events()
            where event.int("taskId") == task && event.string("session") == failure.string("session")
                && ["download.started", "download.retry", "download.failed"].contains(event.name)
            {
                attempts.append(event)
            }
            #expect(
                attempts.map(\.name) == Array(repeating: ["download.started", "download.retry"], count: 7).flatMap { $0 } + [
                    "download.started", "download.failed"
                ])
            let retries = attempts.filter { $0.name == "download.retry" }
            #expect(retries.map { $0.double("delayMs") } == [1, 2, 4, 8, 16, 32, 60].map { $0 * 1000.0 })
            #expect(retries.allSatisfy { $0.int("code") == -1004 }, "\(retries.map { $0.string("error") ?? "" })")

            // Run-clock timestamps: an attempt holds the virtual clock while it is in flight, so
            // its length on the run clock is its real length — a refused connection ends it at
            // once (milliseconds; seconds only when the suite starves the host's threads), where
            // it waited out the 10 s connect timeout before. The next attempt starts when its
            // backoff has passed on the run clock, jumped over by the virtual clock.
            let starts = attempts.filter { $0.name == "download.started" }
            let ends = retries + [failure]
            // Eight attempts that each waited out the connect timeout took 80 s; refused at once,
            // they take milliseconds — the bound leaves room for a starved attempt or two.
            let lengths = zip(starts, ends).map { $1.t - $0.t }
            #expect(lengths.reduce(0, +) < 40_000, "the attempts lasted \(lengths.map { Int($0) }) ms of run time")
            for (retry, next) in zip(retries, starts.dropFirst()) {
                let delay = retry.double("delayMs") ?? 0
                #expect(
                    next.t - retry.t >= delay,
                    "attempt \(next.int("attempt") ?? 0) came \(next.t - retry.t) ms after its retry, before the \(delay) ms backoff")
                #expect(
                    next.t - retry.t < delay + 5000,
                    "attempt \(next.int("attempt") ?? 0) came \(next.t - retry.t) ms after its retry (backoff \(delay) ms)")
            }

            // The extension hears of the failure as on Apple's system: didCompleteWithError.
            let delivered = try await host.waitFor("event.delivered", timeout: .seconds(60)) {
                $0.string("callback") == "didCompleteWithError" && $0.int("taskId") == task
            }
            #expect(delivered.bundle == "com.example.downloader.widget")
            _ = try await host.waitFor("log", timeout: .seconds(60)) { ($0.string("message") ?? "").contains("feed download failed") }
        }
    }
}

/// A TCP port on 127.0.0.1 bound and never listened on, held for the test: a connection to it
/// is refused at once, and no other process can take the port meanwhile.
struct UnlistenedPort {
    let fd: Int32
    let number: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound else {
            let error = errno
            if fd >= 0 { Glibc.close(fd) }
            throw POSIXError(.init(rawValue: error) ?? .EIO)
        }
        self.fd = fd
        number = UInt16(bigEndian: address.sin_port)
    }

    func close() { _ = Glibc.close(fd) }
}
