import SandglassTesting

@testable import SandglassHost

/// Runs `body` with a fixture server on 127.0.0.1 and `transport`, and shuts both down after,
/// whether `body` returns or throws.
func withFixtureServer(and transport: HTTPTransport, _ body: (FixtureServer) async throws -> Void) async throws {
    let server = try await FixtureServer.start()
    do {
        try await body(server)
    } catch {
        await transport.shutdown()
        await server.stop()
        throw error
    }
    await transport.shutdown()
    await server.stop()
}
