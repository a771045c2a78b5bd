import CSandbox
import SandglassIPC

/// The hello: a launching process says who it is and what it speaks, and is welcomed.
extension Supervisor {
    /// Checks the hello of a launching process (its protocol, bundle and role) and welcomes it.
    func handleHello(_ hello: Hello, from process: ExtensionProcess, of ext: ManagedExtension) {
        guard let version = ProtocolVersion.current.negotiated(with: hello.version) else {
            let text =
                "protocol version \(hello.version) is not supported: this host speaks \(ProtocolVersion.current.major).x; rebuild the extension against a matching Sandglass SDK"
            process.channel.send(.error(ErrorReport(code: .unsupportedVersion, message: text)))
            return protocolViolation(process, of: ext, text)
        }
        guard hello.bundleIdentifier == ext.identifier else {
            // The name it gave is its own text: cut, as every name of an extension's in the log.
            let named = MessageBudget.cut(hello.bundleIdentifier, to: HelloLimits.nameBytes)
            return protocolViolation(process, of: ext, "said hello as \(named), but its bundle is \(ext.identifier)")
        }
        guard hello.role == ext.bundle.role else {
            return protocolViolation(
                process, of: ext, "said hello as a \(hello.role) extension, but its Info.plist declares \(ext.bundle.point)")
        }
        if let refusal = HelloLimits.refusal(of: hello) {
            return protocolViolation(process, of: ext, "said hello but \(refusal)")
        }
        process.hello = hello
        drive(process, of: ext, .helloReceived(at: sg_monotonic_ns())) // the launch budget's timer stops
        ext.hello = hello
        let ms = Double(sg_monotonic_ns() - process.spawnedAt) / 1e6
        process.channel.holdUntilEndOfTurn() // the welcome and the activations waiting for the launch, in one write
        process.channel.send(
            .welcome(Welcome(version: version, clockMode: clock.mode, clockEpoch: clock.epoch, containerPath: ext.container)))
        let (kinds, families, leftOut) = HelloLimits.loggedWidgets(hello.widgets)
        var fields: [(String, JSONValue)] = [
            ("bundle", .string(ext.identifier)), ("pid", .int(Int64(process.pid))),
            ("ms", .double((ms * 1000).rounded() / 1000)), ("version", .string(hello.version.description)),
            ("kinds", kinds), ("families", families)
        ]
        if leftOut > 0 { fields.append(("kindsLeftOut", .int(Int64(leftOut)))) }
        log.emit(.hello, fields)
        hooks.stepReached(.hello, ext, process) // a chaos kill here is kept: welcomed, the process dies
        checkContainer(process, of: ext) // what its launch wrote
        // The launch's hold of the clock ends, its waiters resume, and the idle timer starts.
        drive(process, of: ext, .helloHandled(now: clock.now))
        hooks.helloReceived(ext, hello)
    }
}
