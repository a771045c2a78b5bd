import CSandbox
import Foundation
import SandglassIPC
import SandglassTesting
import Testing

@testable import SandglassHost

/// HTTP attempts on the host's transport (libcurl), against the real fixture server on 127.0.0.1.
@Suite("HTTP attempts")
struct HTTPAttemptTests {
    private func withServer(
        connectPolicy: ConnectPolicy = .standard, _ body: (FixtureServer, HTTPTransport, String) async throws -> Void
    ) async throws {
        let transport = HTTPTransport(connectPolicy: connectPolicy)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("attempt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await withFixtureServer(and: transport) { server in try await body(server, transport, dir + "/body") }
    }

    /// An attempt with the read timeout generous enough for a loaded 2-core CI machine.
    private func attempt(
        _ transport: HTTPTransport, _ url: String, readTimeout: Duration = .seconds(30), resumeFrom: Int64 = 0, validator: String? = nil
    ) -> HTTPAttempt {
        HTTPAttempt(
            transport: transport, readTimeout: readTimeout, request: HTTPRequestPayload(url: url), resumeFrom: resumeFrom,
            validator: validator, owner: TransferOwner(app: "test", name: "test"))
    }

    private func expectBody(_ path: String, size: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count == size)
        #expect(data.enumerated().allSatisfy { $0.element == FixtureServer.byte(at: $0.offset) })
    }

    @Test("a body streams to the file with its response and validator")
    func download() async throws {
        try await withServer { server, transport, path in
            let attempt = attempt(transport, server.url("/bytes/300000"))
            let sink = FileSink(path: path, existing: 0) { _, _ in }
            guard case .completed(let response, let validator) = await attempt.run(into: sink) else {
                Issue.record("not completed"); return
            }
            sink.close()
            #expect(response.statusCode == 200)
            #expect(response.expectedContentLength == 300_000)
            #expect(validator == "\"bytes-300000\"")
            try expectBody(path, size: 300_000)
        }
    }

    /// The attempt's failure, after it was refused.
    private func denial(_ transport: HTTPTransport, _ url: String, _ path: String) async -> TaskErrorPayload? {
        guard
            case .failed(let error, let transient, _, _) = await attempt(transport, url).run(
                into: FileSink(path: path, existing: 0) { _, _ in })
        else { return nil }
        #expect(!transient, "a denied address is not worth another attempt")
        return error
    }

    @Test("trailers past the host's bound on a response's header lines fail the attempt, not retried; a few are ignored")
    func trailerFlood() async throws {
        try await withServer { server, transport, path in
            guard
                case .completed(let response, _) = await attempt(transport, server.url("/trailers/3")).run(
                    into: FileSink(path: path, existing: 0) { _, _ in })
            else { Issue.record("a response with three trailers failed"); return }
            #expect(response.statusCode == 200)
            #expect(!response.headers.contains { $0.name.hasPrefix("X-Trailer-") }, "trailers are not the response's headers")
            guard
                case .failed(let error, let transient, _, _) = await attempt(transport, server.url("/trailers/20000")).run(
                    into: FileSink(path: path, existing: 0) { _, _ in })
            else { Issue.record("20,000 trailers (2 MB) were taken in"); return }
            #expect(error.code == -1103, "\(error.message)")
            #expect(!transient)
        }
    }

    @Test("an address the connect policy denies is never connected to: -1004, not retried, the reason in its message")
    func deniedAddress() async throws {
        let loopback = try ConnectPolicy.ranges("loopback")
        try await withServer(connectPolicy: ConnectPolicy(denied: loopback)) { server, transport, path in
            let error = try #require(await denial(transport, server.url("/bytes/100"), path), "the denied server was fetched")
            #expect(error.code == -1004)
            #expect(error.message.contains("127.0.0.1 is in 127.0.0.0/8 (loopback)"), "\(error.message)")
            // By name: localhost's addresses (127.0.0.1, ::1) are each checked after DNS.
            let named = try #require(await denial(transport, "http://localhost:\(server.port)/bytes/100", path))
            #expect(named.code == -1004 && named.message.contains("(loopback)"), "\(named.message)")
            // The address a name resolved to is the resolver's answer: not told to the extension.
            #expect(!named.message.contains("127.0.0.1 is") && !named.message.contains("::1 is"), "\(named.message)")
            #expect(server.requests.isEmpty, "the server was reached")
        }
    }

    /// This machine's first IPv4 address that is not loopback, if it has one.
    static let machineAddress: [UInt8]? = LocalAddresses.current().first { $0.count == 4 && $0[0] != 127 }

    @Test(
        "with loopback denied, the machine's own address is denied too: a connection to it goes over loopback to every service listening on all addresses",
        .enabled(if: machineAddress != nil, "no IPv4 address but loopback here"))
    func ownAddressIsLoopback() async throws {
        let own = try #require(Self.machineAddress)
        let listener = try RawHTTPServer(
            response: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8), anywhere: true)
        defer { listener.close() }
        let url = "http://\(own.map(String.init).joined(separator: ".")):\(listener.port)/"
        try await withServer(connectPolicy: ConnectPolicy(denied: try ConnectPolicy.ranges("loopback"))) { _, transport, path in
            let error = try #require(await denial(transport, url, path), "the machine's own address was fetched with loopback denied")
            #expect(error.code == -1004 && error.message.contains("an address of this machine"), "\(error.message)")
            // The same address written as IPv6.
            let mapped = "http://[::ffff:\(own.map(String.init).joined(separator: "."))]:\(listener.port)/"
            let viaMapped = try #require(await denial(transport, mapped, path), "the machine's own address, IPv4-mapped, was fetched")
            #expect(viaMapped.code == -1004, "\(viaMapped.message)")
        }
        // Allowed by the standard policy, which allows loopback.
        try await withServer { _, transport, path in
            let outcome = await attempt(transport, url).run(into: FileSink(path: path, existing: 0) { _, _ in })
            guard case .completed = outcome else { Issue.record("\(outcome)"); return }
        }
    }

    @Test("a redirect to a denied address is refused at its connection; an allowed exception connects")
    func deniedRedirect() async throws {
        let denied = ConnectPolicy(denied: [try AddressRange("127.0.0.2")])
        try await withServer(connectPolicy: denied) { server, transport, path in
            let target = "http://127.0.0.2:\(server.port)/bytes/100"
            let error = try #require(await denial(transport, server.url("/redirect?to=\(target)"), path), "the redirect was followed")
            #expect(error.code == -1004)
            #expect(error.message.contains("is in 127.0.0.2/32"), "\(error.message)")
            #expect(server.requests.count == 1, "only the redirect was asked for")
        }
        let excepted = ConnectPolicy(denied: try ConnectPolicy.ranges("loopback"), allowed: [try AddressRange("127.0.0.1")])
        try await withServer(connectPolicy: excepted) { server, transport, path in
            guard
                case .completed(let response, _) = await attempt(transport, server.url("/bytes/100")).run(
                    into: FileSink(path: path, existing: 0) { _, _ in })
            else { Issue.record("the allowed exception was not fetched"); return }
            #expect(response.statusCode == 200)
        }
    }

    @Test("a server's validator over 256 bytes is not kept (the task's journal row would hold it): the download completes, without one")
    func longValidator() async throws {
        try await withServer { server, transport, path in
            let attempt = attempt(transport, server.url("/bytes/1000?etag=60000"))
            let sink = FileSink(path: path, existing: 0) { _, _ in }
            guard case .completed(let response, let validator) = await attempt.run(into: sink) else {
                Issue.record("not completed"); return
            }
            sink.close()
            #expect(response.statusCode == 200)
            #expect(validator == nil, "a validator of \(validator?.utf8.count ?? 0) bytes was kept")
        }
    }

    @Test("a validator with a line break is never sent back as If-Range")
    func validatorLineBreak() {
        #expect(HTTPAttempt.usable("\"abc\"") == "\"abc\"")
        #expect(HTTPAttempt.usable("\"abc\"\rX-Injected: 1") == nil)
        #expect(HTTPAttempt.usable("abc\n") == nil)
    }

    @Test("a dropped connection is transient, and the next attempt resumes with Range where it stopped")
    func rangeResume() async throws {
        try await withServer { server, transport, path in
            let url = server.url("/drop/200000?after=70000")
            let first = attempt(transport, url)
            let sink = FileSink(path: path, existing: 0) { _, _ in }
            guard case .failed(let error, let transient, _, let validator) = await first.run(into: sink) else {
                Issue.record("the cut-off attempt completed"); return
            }
            sink.close()
            #expect(transient)
            #expect(error.code == -1005, "\(error.message)")
            #expect(sink.written > 0 && sink.written <= 70_000)
            let second = attempt(transport, url, resumeFrom: sink.written, validator: validator)
            let resumed = FileSink(path: path, existing: sink.written) { _, _ in }
            guard case .completed(let response, _) = await second.run(into: resumed) else {
                Issue.record("the resumed attempt failed"); return
            }
            resumed.close()
            #expect(response.statusCode == 206)
            #expect(server.requests.last?.range == "bytes=\(sink.written)-")
            try expectBody(path, size: 200_000)
        }
    }

    @Test(
        "a resumed response announcing the largest length there is: refused as over any quota (-1103, not retried), the host's sum of lengths does not overflow"
    )
    func resumedLengthOverflow() async throws {
        try await withServer { server, transport, path in
            let url = server.url("/lies/8?length=\(Int64.max)")
            let attempt = attempt(transport, url, resumeFrom: 10, validator: "\"lies\"")
            let quota = DownloadLedger.Quota(ledger: DownloadLedger(), bundle: "test", bytes: 1 << 20)
            let sink = FileSink(path: path, existing: 10) { _, _ in }
            sink.quota = quota
            defer { sink.close() }
            guard case .failed(let error, let transient, _, _) = await attempt.run(into: sink) else {
                Issue.record("a length past any quota was taken"); return
            }
            #expect(error.code == -1103, "\(error.message)")
            #expect(!transient)
            #expect(server.requests.last?.range == "bytes=10-")
        }
    }

    @Test("503 is transient; a refused connection is -1004 and transient")
    func failures() async throws {
        try await withServer { server, transport, path in
            let flaky = attempt(transport, server.url("/flaky/10?failures=1"))
            guard case .failed(_, let transient, let response, _) = await flaky.run(into: FileSink(path: path, existing: 0) { _, _ in })
            else {
                Issue.record("503 was not a failure"); return
            }
            #expect(transient)
            #expect(response?.statusCode == 503)
            guard case .completed = await flaky.run(into: FileSink(path: path, existing: 0) { _, _ in }) else {
                Issue.record("second attempt failed"); return
            }
            let refused = attempt(transport, "http://127.0.0.1:1/x")
            guard
                case .failed(let error, let refusedTransient, _, _) = await refused.run(into: FileSink(path: path, existing: 0) { _, _ in })
            else {
                Issue.record("connected to port 1"); return
            }
            #expect(error.code == -1004)
            #expect(refusedTransient)
        }
    }

    @Test("a redirect is followed to http, never to another scheme")
    func redirects() async throws {
        try await withServer { server, transport, path in
            let target = server.url("/bytes/1000")
            let followed = attempt(
                transport, server.url("/redirect?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
            guard case .completed(let response, _) = await followed.run(into: FileSink(path: path, existing: 0) { _, _ in }) else {
                Issue.record("the redirect was not followed"); return
            }
            #expect(response.statusCode == 200)
            try expectBody(path, size: 1000)
            for scheme in ["file:///etc/passwd", "http+unix://%2Frun%2Fx.sock/", "ftp://127.0.0.1/x"] {
                let away = attempt(
                    transport, server.url("/redirect?to=\(scheme.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
                guard case .failed(let error, let transient, _, _) = await away.run(into: FileSink(path: path, existing: 0) { _, _ in })
                else {
                    Issue.record("followed a redirect to \(scheme)"); continue
                }
                #expect(!transient)
                #expect(error.code == -1002 || error.code == -1, "\(scheme): \(error.message)")
            }
        }
    }

    @Test("a request's method, body and content type reach the server as sent, with nothing added")
    func requestBody() async throws {
        try await withServer { server, transport, path in
            let body = Data((0..<5000).map { UInt8($0 % 256) })
            for (method, contentType) in [("POST", nil), ("PUT", "application/json")] as [(String, String?)] {
                var request = HTTPRequestPayload(url: server.url("/echo"))
                request.method = method
                request.body = Array(body)
                if let contentType { request.headers = [HeaderField("Content-Type", contentType)] }
                let echo = HTTPAttempt(
                    transport: transport, readTimeout: .seconds(30), request: request, resumeFrom: 0, validator: nil,
                    owner: TransferOwner(app: "test", name: "test"))
                guard case .completed(let response, _) = await echo.run(into: FileSink(path: path, existing: 0) { _, _ in }) else {
                    Issue.record("\(method) failed"); continue
                }
                #expect(response.statusCode == 200)
                #expect(server.requests.last?.method == method)
                #expect(server.requests.last?.contentType == contentType)
                let echoed = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(echoed == body)
            }
        }
    }

    @Test("a server silent for longer than the read timeout fails the attempt with -1001, transient")
    func readTimeout() async throws {
        try await withServer { server, transport, path in
            let silent = attempt(transport, server.url("/bytes/10?delay=60000"), readTimeout: .milliseconds(200))
            guard case .failed(let error, let transient, _, _) = await silent.run(into: FileSink(path: path, existing: 0) { _, _ in })
            else {
                Issue.record("completed"); return
            }
            #expect(error.code == -1001, "\(error.message)")
            #expect(transient)
        }
    }

    @Test("a consumer that falls behind pauses its transfer: the host holds a bounded part of the body, then gets all of it")
    func backpressure() async throws {
        try await withServer { server, transport, _ in
            let size = 6 << 20
            let transfer = transport.start(
                HTTPRequestPayload(url: server.url("/bytes/\(size)")), readTimeout: .seconds(30),
                owner: TransferOwner(app: "test", name: "test"))
            guard case .response(let status, _, _) = await transfer.next() else {
                Issue.record("no response first"); return
            }
            #expect(status == 200)
            // Nothing taken: the transfer pauses once the host holds its high-water mark.
            let deadline = sg_monotonic_ns() + 30_000_000_000
            while !transfer.isPaused, sg_monotonic_ns() < deadline { await Task.yield() }
            #expect(transfer.isPaused)
            #expect(transfer.heldBytes <= HTTPTransfer.highWater + (128 << 10), "held \(transfer.heldBytes) bytes")
            var received = 0
            var offset = 0
            var intact = true
            loop: while true {
                switch await transfer.next() {
                case .data(let bytes):
                    // In order, nothing lost or repeated: each chunk's first and last byte where they belong.
                    intact =
                        intact && bytes.first == FixtureServer.byte(at: offset)
                        && bytes.last == FixtureServer.byte(at: offset + bytes.count - 1)
                    offset += bytes.count
                    received += bytes.count
                case .end(.completed): break loop
                case .end(.failed(let error, _)):
                    Issue.record("failed: \(error.message)"); break loop
                case .response: Issue.record("a second response")
                }
            }
            #expect(received == size)
            #expect(intact)
        }
    }

    @Test("cancelling an attempt ends it with -999 at once; a shut-down transport ends what is in flight")
    func cancellation() async throws {
        try await withServer { server, transport, path in
            let slow = attempt(transport, server.url("/bytes/100000?chunk=1000&interval=1000"))
            let running = Task { await slow.run(into: FileSink(path: path, existing: 0) { _, _ in }) }
            running.cancel()
            guard case .failed(let error, let transient, _, _) = await running.value else {
                Issue.record("completed"); return
            }
            #expect(error.code == -999)
            #expect(!transient)
            let inFlight = Task { await slow.run(into: FileSink(path: path, existing: 0) { _, _ in }) }
            await transport.shutdown()
            guard case .failed(let ended, _, _, _) = await inFlight.value else {
                Issue.record("completed after shutdown"); return
            }
            #expect(ended.code == -999)
        }
    }

    @Test("https is spoken, and a server whose certificate is not trusted is refused: -1202, not retried")
    func untrustedCertificate() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let environment = ProcessInfo.processInfo.environment
        let certificate = try ChildProcess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj",
                "/CN=127.0.0.1",
                "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem"
            ], environment: environment, timeout: .seconds(60))
        try #require(certificate.termination == .exited(0), "openssl: \(String(decoding: certificate.error, as: UTF8.self))")
        // A TLS server on 127.0.0.1 with that self-signed certificate; it prints its port.
        let server = try ChildProcess(
            "/usr/bin/python3",
            [
                "-c",
                """
                import http.server, ssl, sys
                server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain(sys.argv[1], sys.argv[2])
                server.socket = context.wrap_socket(server.socket, server_side=True)
                print(server.server_address[1], flush=True)
                server.serve_forever()
                """,
                dir + "/cert.pem", dir + "/key.pem"
            ], environment: environment, standardOutput: .pipe)
        defer {
            server.signal()
            server.wait()
        }
        let port = String(decoding: server.standardOutput?.availableData ?? Data(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        try #require(Int(port) != nil, "the TLS server did not start")
        let transport = HTTPTransport()
        let attempt = HTTPAttempt(
            transport: transport, readTimeout: .seconds(30), request: HTTPRequestPayload(url: "https://127.0.0.1:\(port)/"), resumeFrom: 0,
            validator: nil, owner: TransferOwner(app: "test", name: "test"))
        let result = await attempt.run(into: FileSink(path: dir + "/body", existing: 0) { _, _ in })
        await transport.shutdown()
        guard case .failed(let error, let transient, _, _) = result else {
            Issue.record("a self-signed certificate was trusted"); return
        }
        #expect(error.code == -1202, "\(error.message)")
        #expect(!transient)
    }

    @Test(
        "an extension's request cannot frame itself: a Content-Length of 0 before a body that is a second request does not make the next app's request on the reused connection its body"
    )
    func noSmuggling() async throws {
        try await withServer { server, transport, path in
            let smuggled = Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 60\r\n\r\n".utf8)
            let first = HTTPAttempt(
                transport: transport, readTimeout: .seconds(30),
                request: HTTPRequestPayload(
                    url: server.url("/echo"), method: "POST",
                    headers: [HeaderField("Content-Length", "0"), HeaderField("Connection", "keep-alive")], body: smuggled),
                resumeFrom: 0, validator: nil, owner: TransferOwner(app: "com.example.a", name: "a"))
            let firstSink = FileSink(path: path + "-a", existing: 0) { _, _ in }
            _ = await first.run(into: firstSink)
            firstSink.close()
            // Another app's request to the same origin, with its credentials.
            let second = HTTPAttempt(
                transport: transport, readTimeout: .seconds(30),
                request: HTTPRequestPayload(url: server.url("/json"), headers: [HeaderField("Authorization", "Bearer B-SECRET")]),
                resumeFrom: 0, validator: nil, owner: TransferOwner(app: "com.example.b", name: "b"))
            let secondSink = FileSink(path: path + "-b", existing: 0) { _, _ in }
            _ = await second.run(into: secondSink)
            secondSink.close()
            let received = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path + "-b"))) ?? Data(), as: UTF8.self)
            #expect(!received.contains("GET /json"), "app b's request went to app a's smuggled request: \(received.prefix(200))")
            let bodies = server.requests.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(!bodies.contains { $0.contains("GET /json") }, "the server took app b's request as a body: \(bodies)")
        }
    }

    @Test(
        "connections are an app's own: another app's request to the same origin never goes on one an app used, while an app's own requests reuse theirs"
    )
    func connectionsPerApp() async throws {
        try await withServer { server, transport, path in
            func fetch(_ app: String, _ route: String) async {
                let attempt = HTTPAttempt(
                    transport: transport, readTimeout: .seconds(30), request: HTTPRequestPayload(url: server.url(route)),
                    resumeFrom: 0, validator: nil, owner: TransferOwner(app: app, name: "inline 1"))
                let sink = FileSink(path: path + "-" + app, existing: 0) { _, _ in }
                _ = await attempt.run(into: sink)
                sink.close()
            }
            await fetch("com.example.a", "/json?n=1")
            await fetch("com.example.a", "/json?n=2")
            await fetch("com.example.b", "/json?n=3")
            await fetch("com.example.a", "/json?n=4")
            let connections = Dictionary(uniqueKeysWithValues: server.requests.map { ($0.uri, $0.connection ?? -1) })
            #expect(
                connections["/json?n=1"] == connections["/json?n=2"], "an app's second request did not reuse its connection: \(connections)"
            )
            #expect(connections["/json?n=4"] == connections["/json?n=1"], "\(connections)")
            #expect(connections["/json?n=3"] != connections["/json?n=1"], "app b's request went on app a's connection: \(connections)")
        }
    }

    @Test(
        "apps' connections apart, the host still has all its slots on the wire at once: 3 apps × 10 held requests reach the server together"
    )
    func connectionsApartKeepTheHostsSlots() async throws {
        try await withServer { server, transport, path in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for app in 0..<3 {
                    for owner in 0..<2 {
                        for n in 0..<5 {
                            let attempt = HTTPAttempt(
                                transport: transport, readTimeout: .seconds(60),
                                request: HTTPRequestPayload(url: server.url("/bytes/10?gate=held&r=\(app)-\(owner)-\(n)")),
                                resumeFrom: 0, validator: nil, owner: TransferOwner(app: "app\(app)", name: "inline \(owner)"))
                            group.addTask {
                                let sink = FileSink(path: path + "-\(app)-\(owner)-\(n)", existing: 0) { _, _ in }
                                _ = await attempt.run(into: sink)
                                sink.close()
                            }
                        }
                    }
                }
                // Every request on the wire while the server holds them all (libcurl's connection
                // limits count each app's connections, not the host's).
                let deadline = ContinuousClock.now + .seconds(30)
                while server.requestCount("/bytes/10?gate=held") < 30, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(server.requestCount("/bytes/10?gate=held") == 30)
                server.open(gate: "held")
                try await group.waitForAll()
            }
            #expect(server.completedBodies == 30)
        }
    }

    @Test(
        "a response in a transfer coding other than chunked (gzip) is refused, not decoded: a few KB on the wire could be gigabytes decoded"
    )
    func transferCodingRefused() async throws {
        try await withServer { _, transport, path in
            // A server of raw bytes: the fixture's HTTP encoder writes no transfer coding but chunked.
            let body = Gzip.stored([UInt8](repeating: 0, count: 100_000))
            let response =
                Array(
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n\(String(body.count, radix: 16))\r\n"
                        .utf8)
                + body + Array("\r\n0\r\n\r\n".utf8)
            let server = try RawHTTPServer(response: response)
            defer { server.close() }
            let outcome = await attempt(transport, "http://127.0.0.1:\(server.port)/coded").run(
                into: FileSink(path: path, existing: 0) { _, _ in })
            guard case .failed(let error, let transient, _, _) = outcome else {
                Issue.record("the host decoded the transfer coding: \(outcome)")
                return
            }
            #expect(error.code == -1016, "\(error)")
            #expect(error.message.contains("gzip"), "\(error)")
            #expect(!transient)
        }
    }
}

@Suite("App connections")
struct AppConnectionsTests {
    @Test("an app keeps its connections while it has requests on the wire; past 16 idle apps, the one idle the longest loses them")
    func idleLimit() {
        let connections = AppConnections()
        #expect(connections.share(for: "busy") != nil)
        for n in 0..<(AppConnections.idleLimit + 4) {
            #expect(connections.share(for: "app\(n)") != nil)
            connections.ended("app\(n)", now: UInt64(n))
        }
        #expect(connections.holds("busy"), "an app with a request on the wire lost its connections")
        #expect(!connections.holds("app0") && !connections.holds("app3"), "the apps idle the longest kept theirs")
        #expect(connections.holds("app4") && connections.holds("app\(AppConnections.idleLimit + 3)"))
        // Busy again: no longer idle, so the next to go is another (two more idle apps: 17 idle).
        _ = connections.share(for: "app4")
        for n in [100, 101] {
            _ = connections.share(for: "app\(n)")
            connections.ended("app\(n)", now: UInt64(n))
        }
        #expect(connections.holds("app4") && !connections.holds("app5") && connections.holds("app6"))
        connections.freeAll()
        #expect(!connections.holds("busy"))
    }

    @Test("an app idle for libcurl's idle connection age (118 s) loses its connections; one on the wire never does")
    func idleLifetime() {
        let connections = AppConnections()
        let second: UInt64 = 1_000_000_000
        _ = connections.share(for: "idle")
        connections.ended("idle", now: 10 * second)
        _ = connections.share(for: "busy")
        connections.closeIdle(now: 127 * second)
        #expect(connections.holds("idle"), "closed before 118 s idle")
        connections.closeIdle(now: 128 * second)
        #expect(!connections.holds("idle") && connections.holds("busy"))
    }
}
