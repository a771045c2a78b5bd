/// Crash-loop backoff: the failures an extension is to blame for (``ProcessLifecycle``'s
/// `recordFailure`, a failed spawn) schedule its next launch, or fail it permanently.
extension Supervisor {
    /// Records a death the extension is to blame for and schedules its backoff, or marks it
    /// failed permanently.
    func recordFailure(of ext: ManagedExtension, pid: Int32?, cause: String) {
        let policy = settings.relaunchBackoff
        let now = clock.now
        var fields: [(String, JSONValue)] = [("bundle", .string(ext.identifier))]
        if let pid { fields.append(("pid", .int(Int64(pid)))) }
        switch ext.crashLoop.recordFailure(at: now, cause: cause, policy: policy) {
        case .backoff(let delay, let until):
            fields += [
                ("failures", .int(Int64(ext.crashLoop.failures.count))), ("cause", .string(cause)),
                ("delayMs", .double(delay.milliseconds)), ("until", .double(Double(until) / 1e6)),
                ("untilDate", .string(iso8601(clock.date(at: until))))
            ]
            log.emit(.backoffScheduled, fields)
        case .failedPermanently:
            let failures = ext.crashLoop.failures.suffix(policy.permanentFailureCount)
            let span = now - (failures.first?.at ?? now)
            fields += [
                ("failures", .int(Int64(failures.count))), ("withinMs", .double(Double(span) / 1e6)),
                ("windowMs", .double(policy.permanentFailureWindow.milliseconds)),
                ("causes", .array(failures.map { .string($0.cause) }))
            ]
            log.emit(.extensionFailedPermanently, fields)
        }
    }

    /// Forgets the extension's failures, a permanent failure included; waiting launches go ahead.
    func clearFailures(_ ext: ManagedExtension) {
        let wasFailed = ext.crashLoop.isFailedPermanently
        let count = ext.crashLoop.failures.count
        ext.crashLoop.clear()
        log.emit(
            .backoffCleared,
            [
                ("bundle", .string(ext.identifier)), ("failures", .int(Int64(count))),
                ("wasFailedPermanently", .bool(wasFailed)), ("detail", "cleared by the host")
            ])
        backoffWaits.end { $0 === ext }
    }
}
