/// A message from the compiler to the plugin: the cases of the compiler's plugin protocol this
/// plugin reads (swift-syntax's `HostToPluginMessage`, JSON-encoded as a one-key object naming
/// the case).
enum HostMessage: Decodable, Equatable {
    /// The compiler's protocol version, and a request for the plugin's.
    case getCapability(protocolVersion: Int?)
    /// Expand a freestanding macro (`#Preview …`).
    case expandFreestandingMacro(FreestandingExpansionRequest)
    /// Expand an attached macro (this plugin has none).
    case expandAttachedMacro(MacroReference)
    /// Load a library of macros into the plugin (this plugin does not).
    case loadPluginLibrary(libraryPath: String)

    private enum Case: String, CodingKey {
        case getCapability, expandFreestandingMacro, expandAttachedMacro, loadPluginLibrary
    }

    private enum CapabilityKeys: String, CodingKey { case capability }
    private enum VersionKeys: String, CodingKey { case protocolVersion }
    private enum AttachedKeys: String, CodingKey { case macro }
    private enum LibraryKeys: String, CodingKey { case libraryPath }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Case.self)
        guard let name = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription:
                        "expected one of getCapability, expandFreestandingMacro, expandAttachedMacro, loadPluginLibrary"))
        }
        switch name {
        case .getCapability:
            let message = try container.nestedContainer(keyedBy: CapabilityKeys.self, forKey: name)
            let capability = try? message.nestedContainer(keyedBy: VersionKeys.self, forKey: .capability)
            self = .getCapability(protocolVersion: try capability?.decodeIfPresent(Int.self, forKey: .protocolVersion))
        case .expandFreestandingMacro:
            self = .expandFreestandingMacro(try container.decode(FreestandingExpansionRequest.self, forKey: name))
        case .expandAttachedMacro:
            let message = try container.nestedContainer(keyedBy: AttachedKeys.self, forKey: name)
            self = .expandAttachedMacro(try message.decode(MacroReference.self, forKey: .macro))
        case .loadPluginLibrary:
            let message = try container.nestedContainer(keyedBy: LibraryKeys.self, forKey: name)
            self = .loadPluginLibrary(libraryPath: try message.decode(String.self, forKey: .libraryPath))
        }
    }
}

/// The macro a request names: `#externalMacro(module:type:)` of its declaration, and the name
/// it was used by.
struct MacroReference: Decodable, Equatable {
    var moduleName: String
    var typeName: String
    var name: String
}

/// A request to expand a freestanding macro: which one, a discriminator unique to this use (the
/// stem of the names the expansion introduces), and the source of the use.
struct FreestandingExpansionRequest: Decodable, Equatable {
    var macro: MacroReference
    var discriminator: String
    var syntax: SyntaxSnippet
    /// The build's configuration as JSON (protocol 8 and later): its `customConditions` are the
    /// `-D` conditions of the module being compiled.
    var staticBuildConfiguration: String?
}

/// The source of a macro's use and where it is.
struct SyntaxSnippet: Decodable, Equatable {
    /// The text of the use, leading comments and attributes included.
    var source: String
    var location: SourceLocation
}

/// A place in a source file.
struct SourceLocation: Decodable, Equatable {
    var fileName: String
    /// The UTF-8 offset of the place in the file.
    var offset: Int
}

/// The part of the build's configuration this plugin reads.
struct StaticBuildConfiguration: Decodable, Equatable {
    var customConditions: [String]?
}
