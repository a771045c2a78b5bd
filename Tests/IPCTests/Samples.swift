import SandglassIPC

/// Messages covering every case of ``Message`` with non-trivial payloads: unicode, empty
/// strings and arrays, optionals present and absent, every enum value and reload policy,
/// and integers at the varint boundaries.
enum Samples {
    static let unicode = "Résumé — 漢字 🙂👩‍👩‍👧 ﬁ\u{0}end"
    static let ids: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]

    static let contexts: [ActivationContext] = [
        ActivationContext(kind: "Leaderboard", family: "systemSmall", isPreview: false, displayWidth: 170, displayHeight: 170),
        ActivationContext(kind: unicode, family: "accessoryCircular", isPreview: true, displayWidth: 0.5, displayHeight: -0.0),
        ActivationContext(kind: "", family: "", isPreview: true,
                          displayWidth: .greatestFiniteMagnitude, displayHeight: .leastNonzeroMagnitude),
    ]

    static let entries: [EntryPayload] = [
        EntryPayload(date: 1_700_000_000.25, relevance: nil, json: Array(#"{"score":42}"#.utf8), text: nil),
        EntryPayload(date: 0, relevance: RelevancePayload(score: 0.75, duration: 3600), json: [], text: ""),
        EntryPayload(date: -1.5, relevance: RelevancePayload(score: -.infinity, duration: 0),
                     json: Array("{\"name\":\"\(unicode)\"}".utf8), text: unicode),
        EntryPayload(date: .infinity, relevance: RelevancePayload(score: .greatestFiniteMagnitude, duration: 1e-300),
                     json: Array(0...255), text: "line 1\nline 2"),
    ]

    static let policies: [ReloadPolicyPayload] = [.atEnd, .after(1_700_000_300), .after(0), .after(-12.5), .never]

    static let hellos: [Hello] = [
        Hello(bundleIdentifier: "com.example.Leaderboard.Widget", role: .widgetKit, widgets: [
            WidgetDescription(kind: "Leaderboard", displayName: "Leaderboard", summary: "Top players",
                              supportedFamilies: ["systemSmall", "systemMedium"]),
            WidgetDescription(kind: unicode, supportedFamilies: []),
        ], sessionIdentifiers: ["com.example.download", unicode], matchesSessionsByClosure: true),
        Hello(version: ProtocolVersion(major: 0, minor: 0), bundleIdentifier: "", role: .today, widgets: []),
        Hello(version: ProtocolVersion(major: .max, minor: .max), bundleIdentifier: unicode, role: .widgetKit,
              widgets: [WidgetDescription(kind: "", displayName: "", summary: "", supportedFamilies: [""])],
              sessionIdentifiers: [], matchesSessionsByClosure: false),
    ]

    static let welcomes: [Welcome] = [
        Welcome(version: .current, clockMode: .real, clockEpoch: 1_700_000_000.123, containerPath: "/var/sandglass/containers/x"),
        Welcome(version: ProtocolVersion(major: 1, minor: 300), clockMode: .virtual, clockEpoch: 0, containerPath: ""),
        Welcome(version: ProtocolVersion(major: 2, minor: 0), clockMode: .virtual, clockEpoch: -1e9, containerPath: unicode),
    ]

    /// Every sample message.
    static var all: [Message] {
        var messages: [Message] = []
        messages += hellos.map(Message.hello)
        messages += welcomes.map(Message.welcome)
        for (index, id) in ids.enumerated() {
            let context = contexts[index % contexts.count]
            messages.append(.placeholderRequest(RequestID(id), context))
            messages.append(.snapshotRequest(RequestID(id), context))
            messages.append(.timelineRequest(RequestID(id), context))
            messages.append(.performUpdateRequest(RequestID(id)))
        }
        for (index, entry) in entries.enumerated() {
            messages.append(.entryReply(RequestID(ids[index]), entry))
        }
        for (index, policy) in policies.enumerated() {
            messages.append(.timelineReply(RequestID(ids[index]), TimelinePayload(entries: [], policy: policy)))
            messages.append(.timelineReply(RequestID(ids[ids.count - 1 - index]), TimelinePayload(entries: entries, policy: policy)))
        }
        for result in UpdateResultCode.allCases {
            messages.append(.updateResultReply(RequestID(UInt64(result.rawValue) * 1000), result))
        }
        messages.append(.reloadTimelines(kind: "Leaderboard"))
        messages.append(.reloadTimelines(kind: ""))
        messages.append(.reloadTimelines(kind: unicode))
        messages.append(.reloadAllTimelines)
        for level in LogLevel.allCases {
            messages.append(.log(LogRecord(level: level, message: "\(level): \(unicode)\nsecond line")))
        }
        messages.append(.log(LogRecord(level: .info, message: "")))
        for code in ErrorCode.allCases {
            messages.append(.error(ErrorReport(requestID: RequestID(UInt64(code.rawValue)), code: code, message: "failed: \(unicode)")))
            messages.append(.error(ErrorReport(requestID: nil, code: code, message: "")))
        }
        for n in [0, 1, 127, 128, UInt64.max] {
            messages.append(.ping(n))
            messages.append(.pong(n))
        }
        return messages
    }
}
