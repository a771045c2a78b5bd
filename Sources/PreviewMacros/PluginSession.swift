import FoundationEssentials

/// The plugin's side of a conversation with the compiler: a reply to each message.
///
/// `#Preview` expands to a declaration that type-checks the preview's arguments against the
/// SDK (``PreviewExpansion``), or to nothing in a module built with
/// `-D SANDGLASS_SKIP_PREVIEWS`. Sandglass never runs a preview.
struct PluginSession {
    /// The version of the compiler's plugin protocol this plugin speaks (swift-syntax 6's).
    static let protocolVersion = 7

    /// The condition (`swiftSettings: [.define("SANDGLASS_SKIP_PREVIEWS")]`) under which
    /// previews expand to nothing.
    static let skipCondition = "SANDGLASS_SKIP_PREVIEWS"

    /// The `#externalMacro(module:type:)` type of the SDK's `#Preview` declarations.
    static let macroType = "PreviewMacro"

    /// The type whose initializers take a preview's arguments: SwiftUI declares those of views,
    /// WidgetKit those of widgets, as Apple's frameworks do.
    static let previewType = "DeveloperToolsSupport.Preview"

    /// The compiler's protocol version; until it says, the oldest.
    private(set) var hostProtocolVersion = 0

    /// The reply to a message's JSON payload.
    mutating func reply(toPayload payload: [UInt8]) throws -> [UInt8] {
        let message = try JSONDecoder().decode(HostMessage.self, from: Data(payload))
        return Array(try JSONEncoder().encode(reply(to: message)))
    }

    mutating func reply(to message: HostMessage) -> PluginResponse {
        switch message {
        case .getCapability(let version):
            hostProtocolVersion = version ?? 0
            return .capability(protocolVersion: Self.protocolVersion)
        case .expandFreestandingMacro(let request):
            return expand(request)
        case .expandAttachedMacro(let macro):
            let position = PluginDiagnostic.Position(fileName: "", offset: 0)
            return expansion(nil, [PluginDiagnostic("SandglassPreviewMacros has no attached macro \(macro.typeName)", at: position)])
        case .loadPluginLibrary(let path):
            let position = PluginDiagnostic.Position(fileName: "", offset: 0)
            return .libraryNotLoaded(diagnostics: [
                PluginDiagnostic("SandglassPreviewMacros loads no library (asked for \(path))", at: position)
            ])
        }
    }

    private func expand(_ request: FreestandingExpansionRequest) -> PluginResponse {
        guard request.macro.typeName == Self.macroType else {
            let position = PluginDiagnostic.Position(fileName: request.syntax.location.fileName, offset: request.syntax.location.offset)
            return expansion(
                nil,
                [
                    PluginDiagnostic(
                        "SandglassPreviewMacros has no macro \(request.macro.typeName) (its one macro is \(Self.macroType))", at: position)
                ])
        }
        if Self.conditions(of: request).contains(Self.skipCondition) {
            return expansion("", [])
        }
        let preview = PreviewExpansion(
            previewType: Self.previewType, functionName: PreviewExpansion.uniqueName(discriminator: request.discriminator))
        // A use this plugin cannot read expands to nothing: the preview is then not checked, as
        // it is not run, and the module still builds.
        return expansion(preview.declaration(expanding: request.syntax.source) ?? "", [])
    }

    private func expansion(_ source: String?, _ diagnostics: [PluginDiagnostic]) -> PluginResponse {
        .expansion(source: source, diagnostics: diagnostics, legacy: hostProtocolVersion < 5)
    }

    /// The module's `-D` conditions, from the build configuration the compiler sends along.
    private static func conditions(of request: FreestandingExpansionRequest) -> [String] {
        guard let configuration = request.staticBuildConfiguration,
            let decoded = try? JSONDecoder().decode(StaticBuildConfiguration.self, from: Data(configuration.utf8))
        else {
            return []
        }
        return decoded.customConditions ?? []
    }
}
