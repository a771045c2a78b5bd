import ArgumentParser

/// `--metrics 127.0.0.1:9464`.
struct MetricsAddress: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let host: String
    let port: Int

    init?(argument: String) {
        guard let colon = argument.lastIndex(of: ":"), let port = Int(argument[argument.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(argument[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
    }

    var description: String { "\(host):\(port)" }
}
