import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import SandglassIPC
import Testing

@testable import SandglassHost

/// HTTP attempts against the real fixture server on 127.0.0.1.
@Suite("HTTP attempts")
struct HTTPAttemptTests {
    private func withServer(_ body: (FixtureServer, HTTPClient, String) async throws -> Void) async throws {
        let server = try await FixtureServer.start()
        var configuration = HTTPClient.Configuration()
        // Generous: on a loaded 2-core CI machine a loopback connect can take over a second.
        configuration.timeout = .init(connect: .seconds(15), read: .seconds(30))
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("attempt-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        do {
            try await body(server, client, dir + "/body")
        } catch {
            try? await client.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(atPath: dir)
            throw error
        }
        try? await client.shutdown()
        await server.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func expectBody(_ path: String, size: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count == size)
        #expect(data.enumerated().allSatisfy { $0.element == FixtureServer.byte(at: $0.offset) })
    }

    @Test("a body streams to the file with its response and validator")
    func download() async throws {
        try await withServer { server, client, path in
            let attempt = HTTPAttempt(
                client: client, request: HTTPRequestPayload(url: server.url("/bytes/300000")), resumeFrom: 0, validator: nil)
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

    @Test("a dropped connection is transient, and the next attempt resumes with Range where it stopped")
    func rangeResume() async throws {
        try await withServer { server, client, path in
            let request = HTTPRequestPayload(url: server.url("/drop/200000?after=70000"))
            let first = HTTPAttempt(client: client, request: request, resumeFrom: 0, validator: nil)
            let sink = FileSink(path: path, existing: 0) { _, _ in }
            guard case .failed(let error, let transient, _, let validator) = await first.run(into: sink) else {
                Issue.record("the cut-off attempt completed"); return
            }
            sink.close()
            #expect(transient)
            #expect(error.code == -1005, "\(error.message)")
            #expect(sink.written > 0 && sink.written <= 70_000)
            let second = HTTPAttempt(client: client, request: request, resumeFrom: sink.written, validator: validator)
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

    @Test("503 is transient; a refused connection is -1004 and transient")
    func failures() async throws {
        try await withServer { server, client, path in
            let flaky = HTTPAttempt(
                client: client, request: HTTPRequestPayload(url: server.url("/flaky/10?failures=1")), resumeFrom: 0, validator: nil)
            guard case .failed(_, let transient, let response, _) = await flaky.run(into: FileSink(path: path, existing: 0) { _, _ in })
            else {
                Issue.record("503 was not a failure"); return
            }
            #expect(transient)
            #expect(response?.statusCode == 503)
            guard case .completed = await flaky.run(into: FileSink(path: path, existing: 0) { _, _ in }) else {
                Issue.record("second attempt failed"); return
            }
            let refused = HTTPAttempt(
                client: client, request: HTTPRequestPayload(url: "http://127.0.0.1:1/x"), resumeFrom: 0, validator: nil)
            guard
                case .failed(let error, let refusedTransient, _, _) = await refused.run(into: FileSink(path: path, existing: 0) { _, _ in })
            else {
                Issue.record("connected to port 1"); return
            }
            #expect(error.code == -1004)
            #expect(refusedTransient)
        }
    }
}
