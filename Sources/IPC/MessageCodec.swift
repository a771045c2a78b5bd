/// The hand-written binary encoding of each message's payload.
enum MessageCodec {
    static func encodePayload(_ message: Message, into w: inout BinaryWriter) {
        switch message {
        case .hello(let h):
            w.write(h.version.major)
            w.write(h.version.minor)
            w.write(h.bundleIdentifier)
            w.write(h.role.rawValue)
            w.write(array: h.widgets) { w, d in
                w.write(d.kind)
                w.write(d.displayName)
                w.write(d.summary)
                w.write(array: d.supportedFamilies) { $0.write($1) }
            }
            w.write(array: h.sessionIdentifiers) { $0.write($1) }
            w.write(h.matchesSessionsByClosure)
        case .welcome(let wl):
            w.write(wl.version.major)
            w.write(wl.version.minor)
            w.write(wl.clockMode.rawValue)
            w.write(wl.clockEpoch)
            w.write(wl.containerPath)
        case .placeholderRequest(let id, let c), .snapshotRequest(let id, let c), .timelineRequest(let id, let c):
            w.writeVarint(id.rawValue)
            encode(c, into: &w)
        case .performUpdateRequest(let id), .currentConfigurationsRequest(let id):
            w.writeVarint(id.rawValue)
        case .widgetConfiguration(let id, let configuration):
            w.writeVarint(id.rawValue)
            encode(configuration, into: &w)
        case .currentConfigurations(let id, let configurations):
            w.writeVarint(id.rawValue)
            w.write(array: configurations) { w, c in encode(c, into: &w) }
        case .entryReply(let id, let e):
            w.writeVarint(id.rawValue)
            encode(e, into: &w)
        case .timelineReply(let id, let t):
            w.writeVarint(id.rawValue)
            w.write(array: t.entries) { w, e in encode(e, into: &w) }
            switch t.policy {
            case .atEnd: w.write(UInt8(0))
            case .after(let date):
                w.write(UInt8(1))
                w.write(date)
            case .never: w.write(UInt8(2))
            }
        case .updateResultReply(let id, let result):
            w.writeVarint(id.rawValue)
            w.write(result.rawValue)
        case .reloadTimelines(let kind):
            w.write(kind)
        case .reloadAllTimelines:
            break
        case .log(let record):
            w.write(record.level.rawValue)
            w.write(record.message)
        case .osLog(let record):
            w.write(record.level.rawValue)
            w.write(record.subsystem)
            w.write(record.category)
            w.write(record.message)
        case .error(let report):
            w.write(report.requestID) { $0.writeVarint($1.rawValue) }
            w.write(report.code.rawValue)
            w.write(report.message)
        case .ping(let n), .pong(let n):
            w.writeVarint(n)
        case .diagnostic(let report):
            w.write(report.code.rawValue)
            w.write(report.requestID) { $0.writeVarint($1.rawValue) }
            w.write(report.milliseconds)
            w.write(report.message)
        default:
            encodeNetworkPayload(message, into: &w)
        }
    }

    private static func encode(_ c: ActivationContext, into w: inout BinaryWriter) {
        w.write(c.kind)
        w.write(c.family)
        w.write(c.isPreview)
        w.write(c.displayWidth)
        w.write(c.displayHeight)
    }

    private static func encode(_ c: WidgetConfigurationPayload, into w: inout BinaryWriter) {
        w.write(c.kind)
        w.write(c.family)
        w.write(bytes: c.intent)
    }

    private static func encode(_ e: EntryPayload, into w: inout BinaryWriter) {
        w.write(e.date)
        w.write(e.relevance) { w, r in
            w.write(r.score)
            w.write(r.duration)
        }
        w.write(bytes: e.json)
        w.write(e.text) { $0.write($1) }
        w.write(e.view) { w, view in ViewTreeCodec.encode(view, into: &w) }
    }

    static func decodePayload(_ type: MessageType, _ payload: ArraySlice<UInt8>) throws(ProtocolError) -> Message {
        var r = BinaryReader(payload)
        do {
            let message = try decode(type, &r)
            try r.expectEnd()
            return message
        } catch {
            throw .malformedPayload(type, reason: error.reason, offset: error.offset, payloadSize: payload.count)
        }
    }

    private static func decode(_ type: MessageType, _ r: inout BinaryReader) throws(PayloadError) -> Message {
        switch type {
        case .hello:
            let version = ProtocolVersion(major: try r.readUInt16("major version"), minor: try r.readUInt16("minor version"))
            let bundle = try r.readString("bundle identifier")
            let role = try r.readEnum("role", ExtensionRole.self)
            let widgets = try r.readArray("widgets") { (r) throws(PayloadError) in
                WidgetDescription(
                    kind: try r.readString("widget kind"),
                    displayName: try r.readString("display name"),
                    summary: try r.readString("description"),
                    supportedFamilies: try r.readArray("families") { (r) throws(PayloadError) in try r.readString("family") }
                )
            }
            let sessions = try r.readArray("session identifiers") { (r) throws(PayloadError) in try r.readString("session identifier") }
            let byClosure = try r.readBool("matches sessions by closure")
            return .hello(
                Hello(
                    version: version, bundleIdentifier: bundle, role: role, widgets: widgets,
                    sessionIdentifiers: sessions, matchesSessionsByClosure: byClosure))
        case .welcome:
            let version = ProtocolVersion(major: try r.readUInt16("major version"), minor: try r.readUInt16("minor version"))
            let mode = try r.readEnum("clock mode", ClockMode.self)
            let epoch = try r.readDouble("clock epoch")
            let container = try r.readString("container path")
            return .welcome(Welcome(version: version, clockMode: mode, clockEpoch: epoch, containerPath: container))
        case .placeholderRequest:
            return .placeholderRequest(try readID(&r), try readContext(&r))
        case .snapshotRequest:
            return .snapshotRequest(try readID(&r), try readContext(&r))
        case .timelineRequest:
            return .timelineRequest(try readID(&r), try readContext(&r))
        case .performUpdateRequest:
            return .performUpdateRequest(try readID(&r))
        case .widgetConfiguration:
            return .widgetConfiguration(try readID(&r), try readWidgetConfiguration(&r))
        case .currentConfigurationsRequest:
            return .currentConfigurationsRequest(try readID(&r))
        case .currentConfigurations:
            let id = try readID(&r)
            return .currentConfigurations(
                id, try r.readArray("configurations") { (r) throws(PayloadError) in try readWidgetConfiguration(&r) })
        case .entryReply:
            return .entryReply(try readID(&r), try readEntry(&r))
        case .timelineReply:
            let id = try readID(&r)
            let entries = try r.readArray("entries", maximum: TimelinePayload.maximumEntries) { (r) throws(PayloadError) in
                try readEntry(&r)
            }
            let policy: ReloadPolicyPayload
            switch try r.readByte("reload policy") {
            case 0: policy = .atEnd
            case 1: policy = .after(try r.readDouble("reload date"))
            case 2: policy = .never
            case let other: throw PayloadError(reason: "reload policy: unknown value \(other)", offset: r.offset - 1)
            }
            return .timelineReply(id, TimelinePayload(entries: entries, policy: policy))
        case .updateResultReply:
            return .updateResultReply(try readID(&r), try r.readEnum("update result", UpdateResultCode.self))
        case .reloadTimelines:
            return .reloadTimelines(kind: try r.readString("kind"))
        case .reloadAllTimelines:
            return .reloadAllTimelines
        case .log:
            let level = try r.readEnum("log level", LogLevel.self)
            return .log(LogRecord(level: level, message: try r.readString("log message")))
        case .osLog:
            let level = try r.readEnum("log level", LogLevel.self)
            let subsystem = try r.readString("subsystem")
            let category = try r.readString("category")
            return .osLog(OSLogRecord(level: level, subsystem: subsystem, category: category, message: try r.readString("log message")))
        case .error:
            let id = try r.readOptional("request id") { (r) throws(PayloadError) in RequestID(try r.readVarint("request id")) }
            let start = r.offset
            let rawCode = try r.readUInt16("error code")
            guard let code = ErrorCode(rawValue: rawCode) else {
                throw PayloadError(reason: "error code: unknown value \(rawCode)", offset: start)
            }
            return .error(ErrorReport(requestID: id, code: code, message: try r.readString("error message")))
        case .ping:
            return .ping(try r.readVarint("ping number"))
        case .pong:
            return .pong(try r.readVarint("pong number"))
        case .diagnostic:
            let code = try r.readEnum("diagnostic code", DiagnosticCode.self)
            let id = try r.readOptional("request id") { (r) throws(PayloadError) in RequestID(try r.readVarint("request id")) }
            return .diagnostic(
                DiagnosticReport(
                    code: code, requestID: id, milliseconds: try r.readDouble("milliseconds"),
                    message: try r.readString("diagnostic message")))
        default:
            return try decodeNetwork(type, &r)
        }
    }

    private static func readID(_ r: inout BinaryReader) throws(PayloadError) -> RequestID {
        RequestID(try r.readVarint("request id"))
    }

    private static func readContext(_ r: inout BinaryReader) throws(PayloadError) -> ActivationContext {
        ActivationContext(
            kind: try r.readString("kind"),
            family: try r.readString("family"),
            isPreview: try r.readBool("isPreview"),
            displayWidth: try r.readDouble("display width"),
            displayHeight: try r.readDouble("display height")
        )
    }

    private static func readWidgetConfiguration(_ r: inout BinaryReader) throws(PayloadError) -> WidgetConfigurationPayload {
        WidgetConfigurationPayload(
            kind: try r.readString("kind"), family: try r.readString("family"),
            intent: try r.readBytes("intent JSON"))
    }

    private static func readEntry(_ r: inout BinaryReader) throws(PayloadError) -> EntryPayload {
        let date = try r.readDouble("entry date")
        let relevance = try r.readOptional("relevance") { (r) throws(PayloadError) in
            RelevancePayload(score: try r.readFloat("relevance score"), duration: try r.readDouble("relevance duration"))
        }
        let json = try r.readBytes("entry JSON")
        let text = try r.readOptional("entry text") { (r) throws(PayloadError) in try r.readString("entry text") }
        let view = try r.readOptional("entry view") { (r) throws(PayloadError) in try ViewTreeCodec.readRendering(&r) }
        return EntryPayload(date: date, relevance: relevance, json: json, text: text, view: view)
    }
}
