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
        ActivationContext(
            kind: "", family: "", isPreview: true,
            displayWidth: .greatestFiniteMagnitude, displayHeight: .leastNonzeroMagnitude)
    ]

    static let entries: [EntryPayload] = [
        EntryPayload(date: 1_700_000_000.25, relevance: nil, json: Array(#"{"score":42}"#.utf8), text: nil),
        EntryPayload(date: 0, relevance: RelevancePayload(score: 0.75, duration: 3600), json: [], text: ""),
        EntryPayload(
            date: -1.5, relevance: RelevancePayload(score: -.infinity, duration: 0),
            json: Array("{\"name\":\"\(unicode)\"}".utf8), text: unicode),
        EntryPayload(
            date: .infinity, relevance: RelevancePayload(score: .greatestFiniteMagnitude, duration: 1e-300),
            json: Array(0...255), text: "line 1\nline 2"),
        EntryPayload(date: 1_700_000_000, json: Array("{}".utf8), text: "Score\n42", view: view)
    ]

    /// A view with every kind of node, paint, shape and text run.
    static let view: ViewRendering = {
        let pair = ColorPair(light: RGBA(0x112233FF), dark: RGBA(0xFFEEDD80))
        let stops = [GradientStopPayload(color: pair, location: 0), GradientStopPayload(color: ColorPair(RGBA(0)), location: 1)]
        let run = TextRun(
            text: unicode, size: 17, weight: 600, design: .rounded, decoration: [.italic, .monospacedDigits],
            paint: .color(pair), width: 88.5,
            dynamic: DynamicText(
                style: .timerInterval, date: 1e9, end: 1e9 + 60, countsDown: false,
                showsHours: false, pauseTime: 1e9 + 5))
        let nodes = [
            ViewNode(
                kind: .group, x: 0, y: 0, width: 170, height: 170, childCount: 6, flags: [.containerBackground, .privacySensitive],
                opacity: 0.5, rotation: -90, shape: .roundedRectangle(radius: 22),
                shadow: ViewShadow(color: pair, radius: 3, x: 0, y: 2), url: "game://x", intent: "Intent(id: 1)", label: unicode),
            ViewNode(
                kind: .shape, x: 1, y: 2, width: 3, height: 4, shape: .trimmed(.path("M0 0L1 1Z"), from: 0, to: 0.5),
                fill: .linearGradient(stops, startX: 0.5, startY: 0, endX: 0.5, endY: 1),
                stroke: ViewStroke(
                    paint: .radialGradient(stops, centerX: 0.5, centerY: 0.5, startRadius: 0, endRadius: 40),
                    lineWidth: 2, roundCap: true, dash: [2, 1])),
            ViewNode(
                kind: .text, x: 16, y: 16, width: 100, height: 20, flags: .redacted,
                text: TextLayout(
                    alignment: .center,
                    lines: [TextLine(x: 2, baseline: 16, width: 88.5, runs: [run]), TextLine(x: 0, baseline: 36, width: 0, runs: [])])),
            ViewNode(
                kind: .image, x: 0, y: 0, width: 40, height: 40, flags: .missing, fill: .named("Brand"),
                image: ImageReference(source: .bitmap, name: "photo", pixelWidth: 4000, pixelHeight: 3000)),
            ViewNode(
                kind: .gauge, x: 0, y: 0, width: 58, height: 58, shape: .capsule, meter: MeterValue(style: .circularDot, fraction: 0.3)),
            ViewNode(
                kind: .progress, x: 0, y: 0, width: 100, height: 4, shape: .ellipse,
                meter: MeterValue(style: .linear, fraction: nil, timer: DynamicText(style: .relative, date: -1))),
            ViewNode(kind: .toggle, x: 0, y: 0, width: 51, height: 31, flags: .isOn, shape: .rectangle)
        ]
        let light = ViewTree(width: 170, height: 170, cornerRadius: 22, family: "systemSmall", nodes: nodes, notes: [unicode, ""])
        return ViewRendering(
            light: light, dark: ViewTree(width: 0, height: 0, cornerRadius: 0, family: "", nodes: []), nanoseconds: UInt64.max)
    }()

    static let policies: [ReloadPolicyPayload] = [.atEnd, .after(1_700_000_300), .after(0), .after(-12.5), .never]

    static let hellos: [Hello] = [
        Hello(
            bundleIdentifier: "com.example.Leaderboard.Widget", role: .widgetKit,
            widgets: [
                WidgetDescription(
                    kind: "Leaderboard", displayName: "Leaderboard", summary: "Top players",
                    supportedFamilies: ["systemSmall", "systemMedium"]),
                WidgetDescription(kind: unicode, supportedFamilies: [])
            ], sessionIdentifiers: ["com.example.download", unicode], matchesSessionsByClosure: true),
        Hello(version: ProtocolVersion(major: 0, minor: 0), bundleIdentifier: "", role: .today, widgets: []),
        Hello(
            version: ProtocolVersion(major: .max, minor: .max), bundleIdentifier: unicode, role: .widgetKit,
            widgets: [WidgetDescription(kind: "", displayName: "", summary: "", supportedFamilies: [""])],
            sessionIdentifiers: [], matchesSessionsByClosure: false)
    ]

    static let welcomes: [Welcome] = [
        Welcome(version: .current, clockMode: .real, clockEpoch: 1_700_000_000.123, containerPath: "/var/sandglass/containers/x"),
        Welcome(version: ProtocolVersion(major: 1, minor: 300), clockMode: .virtual, clockEpoch: 0, containerPath: ""),
        Welcome(version: ProtocolVersion(major: 3, minor: 0), clockMode: .virtual, clockEpoch: -1e9, containerPath: unicode)
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
        for level in LogLevel.allCases {
            messages.append(
                .osLog(OSLogRecord(level: level, subsystem: "com.example.app", category: unicode, message: "\(level): <private>")))
        }
        messages.append(.osLog(OSLogRecord(level: .debug, subsystem: "", category: "", message: "")))
        let configured = WidgetConfigurationPayload(
            kind: "Character", family: "systemSmall", intent: Array(#"{"hero":"\#(unicode)"}"#.utf8))
        let unconfigured = WidgetConfigurationPayload(kind: unicode, family: "", intent: [])
        messages.append(.widgetConfiguration(RequestID(41), configured))
        messages.append(.widgetConfiguration(RequestID(UInt64.max), unconfigured))
        messages.append(.currentConfigurationsRequest(RequestID(42)))
        messages.append(.currentConfigurations(RequestID(42), [configured, unconfigured]))
        messages.append(.currentConfigurations(RequestID(0), []))
        for code in ErrorCode.allCases {
            messages.append(.error(ErrorReport(requestID: RequestID(UInt64(code.rawValue)), code: code, message: "failed: \(unicode)")))
            messages.append(.error(ErrorReport(requestID: nil, code: code, message: "")))
        }
        let request = HTTPRequestPayload(
            url: "http://127.0.0.1:8080/feed?q=\(unicode)", method: "POST",
            headers: [HeaderField("Accept", "application/json"), HeaderField("X-Ü", unicode)],
            body: [0, 1, 255], timeout: 30)
        let response = HTTPResponsePayload(
            url: "http://127.0.0.1:8080/feed", statusCode: 206,
            headers: [HeaderField("Content-Range", "bytes 10-99/100")], expectedContentLength: -1)
        let error = TaskErrorPayload(code: -1001, message: "The request timed out.")
        let snapshot = TaskSnapshot(
            taskIdentifier: 7, kind: .download, state: .suspended, request: request,
            taskDescription: "token-42", earliestBeginDate: 1_800_000_000.5,
            countOfBytesClientExpectsToSend: 200, countOfBytesClientExpectsToReceive: 4096,
            countOfBytesReceived: 10, countOfBytesExpectedToReceive: 100, response: response, error: error)
        let plain = TaskSnapshot(taskIdentifier: 0, kind: .data, state: .running, request: HTTPRequestPayload(url: ""))
        messages += [
            .attachSession(SessionConfigurationPayload(identifier: "feed", sharedContainerIdentifier: "group.example")),
            .attachSession(
                SessionConfigurationPayload(
                    identifier: unicode, sessionSendsLaunchEvents: false, isDiscretionary: true,
                    timeoutIntervalForRequest: 1.5, timeoutIntervalForResource: 3600)),
            .sessionAttached(identifier: "feed", tasks: [snapshot, plain]),
            .sessionAttached(identifier: "feed", tasks: []),
            .sessionInvalidated(identifier: "feed", error: TaskErrorPayload(code: -996, message: "in use")),
            .sessionInvalidated(identifier: "feed", error: nil),
            .invalidateSession(identifier: "feed", cancelTasks: true),
            .backgroundEventsRequest(RequestID(9), identifier: "feed"),
            .backgroundEventsReply(RequestID(9), accepted: false),
            .eventHandled(identifier: "feed", eventID: UInt64.max),
            .eventsFinished(identifier: "feed"),
            .allEventsDelivered(identifier: unicode),
            .createTask(RequestID(1), TaskRequestPayload(session: "", kind: .data, request: request)),
            .createTask(
                RequestID(2),
                TaskRequestPayload(
                    session: "feed", kind: .download, request: request, taskDescription: "t",
                    earliestBeginDate: -1.5, countOfBytesClientExpectsToSend: Int64.min,
                    countOfBytesClientExpectsToReceive: Int64.max)),
            .taskCreated(RequestID(2), taskIdentifier: 12),
            .resumeTask(session: "feed", taskIdentifier: 12),
            .cancelTask(session: "", taskIdentifier: 0),
            .getTasks(RequestID(3), session: "feed"),
            .taskList(RequestID(3), [snapshot]),
            .taskProgress(session: "feed", taskIdentifier: 12, received: 1 << 40, expected: -1),
            .taskResponse(session: "", taskIdentifier: 3, response),
            .taskData(session: "", taskIdentifier: 3, Array(0...255)),
            .downloadFinished(
                session: "feed", taskIdentifier: 12, EventStamp(eventID: 77, attempt: 2), file: "CFNetworkDownload_77.tmp", response),
            .downloadFinished(session: "", taskIdentifier: 4, nil, file: "", response),
            .taskCompleted(session: "feed", taskIdentifier: 12, EventStamp(eventID: 78, attempt: 1), error: error, nil),
            .taskCompleted(session: "", taskIdentifier: 4, nil, error: nil, response),
            .locationAuthorization(LocationAuthorizationPayload(status: .authorizedWhenInUse, widgetApproved: true)),
            .locationUpdate([
                LocationPayload(latitude: 52.52, longitude: 13.405, timestamp: 1_800_000_000),
                LocationPayload(
                    latitude: -33.9, longitude: 151.2, altitude: -3, horizontalAccuracy: 65,
                    verticalAccuracy: 10, timestamp: 0)
            ]),
            .locationUpdate([])
        ]
        for status in AuthorizationStatusCode.allCases {
            messages.append(.locationAuthorization(LocationAuthorizationPayload(status: status, widgetApproved: false)))
        }
        for mode in LocationRequestMode.allCases { messages.append(.locationRequest(mode)) }
        for code in LocationErrorCode.allCases { messages.append(.locationFailure(code)) }
        for code in DiagnosticCode.allCases {
            messages.append(
                .diagnostic(
                    DiagnosticReport(
                        code: code, requestID: RequestID(UInt64(code.rawValue) + 127),
                        milliseconds: 250.5, message: "main thread: \(unicode)")))
            messages.append(.diagnostic(DiagnosticReport(code: code, requestID: nil, message: "")))
        }
        for n in [0, 1, 127, 128, UInt64.max] {
            messages.append(.ping(n))
            messages.append(.pong(n))
        }
        return messages
    }
}
