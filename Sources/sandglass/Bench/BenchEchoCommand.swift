import ArgumentParser

/// `sandglass bench-echo SIZE [REPLY]`: reads SIZE-byte messages on standard input (a socket)
/// and answers each with REPLY bytes (default SIZE), until EOF.
struct BenchEchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench-echo", abstract: "The benchmark's echo peer.", shouldDisplay: false)

    @Argument var size: Int
    @Argument var replySize: Int?

    func run() throws {
        var buffer = [UInt8](repeating: 0, count: size)
        var reply = [UInt8](repeating: 0x5A, count: replySize ?? size)
        if replySize == nil {
            while RawRoundTrip.readAll(0, &buffer), RawRoundTrip.writeAll(0, &buffer) {}
        } else {
            while RawRoundTrip.readAll(0, &buffer), RawRoundTrip.writeAll(0, &reply) {}
        }
    }
}
