/// A message from the plugin to the compiler (swift-syntax's `PluginToHostMessage`), encoded as
/// the compiler decodes it: a one-key object naming the case.
enum PluginResponse: Encodable, Equatable {
    /// The plugin's protocol version (it provides no optional feature).
    case capability(protocolVersion: Int)
    /// A macro's expansion (`nil` when it failed, with the diagnostics saying why). `legacy`
    /// names the result as compilers before protocol 5 expect it.
    case expansion(source: String?, diagnostics: [PluginDiagnostic], legacy: Bool)
    /// A library the compiler asked the plugin to load and it did not.
    case libraryNotLoaded(diagnostics: [PluginDiagnostic])

    private enum Case: String, CodingKey {
        case getCapabilityResult, expandMacroResult, expandFreestandingMacroResult, loadPluginLibraryResult
    }

    private enum CapabilityKeys: String, CodingKey { case capability }
    private enum VersionKeys: String, CodingKey { case protocolVersion }
    private enum ExpansionKeys: String, CodingKey { case expandedSource, diagnostics }
    private enum LibraryKeys: String, CodingKey { case loaded, diagnostics }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Case.self)
        switch self {
        case .capability(let version):
            var message = container.nestedContainer(keyedBy: CapabilityKeys.self, forKey: .getCapabilityResult)
            var capability = message.nestedContainer(keyedBy: VersionKeys.self, forKey: .capability)
            try capability.encode(version, forKey: .protocolVersion)
        case .expansion(let source, let diagnostics, let legacy):
            var message = container.nestedContainer(
                keyedBy: ExpansionKeys.self,
                forKey: legacy ? .expandFreestandingMacroResult : .expandMacroResult)
            try message.encodeIfPresent(source, forKey: .expandedSource)
            try message.encode(diagnostics, forKey: .diagnostics)
        case .libraryNotLoaded(let diagnostics):
            var message = container.nestedContainer(keyedBy: LibraryKeys.self, forKey: .loadPluginLibraryResult)
            try message.encode(false, forKey: .loaded)
            try message.encode(diagnostics, forKey: .diagnostics)
        }
    }
}

/// An error the compiler shows at a place in the source.
struct PluginDiagnostic: Encodable, Equatable {
    struct Position: Encodable, Equatable {
        var fileName: String
        /// The UTF-8 offset in the file.
        var offset: Int
    }

    var message: String
    var position: Position

    init(_ message: String, at position: Position) {
        self.message = message
        self.position = position
    }

    private enum Keys: String, CodingKey { case message, severity, position, highlights, notes, fixIts }

    /// An error, with none of the protocol's highlights, notes or fix-its.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(message, forKey: .message)
        try container.encode("error", forKey: .severity)
        try container.encode(position, forKey: .position)
        for key in [Keys.highlights, .notes, .fixIts] {
            try container.encode([String](), forKey: key)
        }
    }
}
