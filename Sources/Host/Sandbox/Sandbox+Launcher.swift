/// The Linux backend of ``ProcessLauncher``: each extension a real child of the host, spawned
/// into the sandbox, killed and reaped through its pidfd (``PidfdControl``).
extension Sandbox: ProcessLauncher {
    func launch(_ request: LaunchRequest) throws -> LaunchedProcess {
        let (spawned, cgroup) = try spawn(
            executable: request.executable,
            environment: request.environment,
            container: request.container,
            executableRoot: request.executableRoot,
            user: request.user,
            memoryBytes: request.memoryBytes,
            containerBytes: request.containerBytes,
            group: request.group,
            sharedDirectories: request.sharedDirectories,
            supplementaryGroups: request.supplementaryGroups
        )
        var launched = LaunchedProcess(
            pid: spawned.pid, exitFD: spawned.pidfd, channelFD: spawned.channelFD, outputFD: spawned.outputFD,
            control: PidfdControl(pid: spawned.pid, pidfd: spawned.pidfd))
        launched.pidfd = spawned.pidfd
        launched.listenerFD = spawned.listenerFD
        launched.cgroup = cgroup
        launched.cgroupJoinNanoseconds = spawned.cgroupJoinNanoseconds
        launched.setupNanoseconds = spawned.setupNanoseconds
        return launched
    }
}
