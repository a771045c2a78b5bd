import SandglassIPC
import Testing

@testable import WidgetKit

/// Every test that runs a runtime over a socketpair. Serialized: some install their runtime as
/// the process's, and the machine has two cores. Off the cooperative pool: the tests block a
/// thread while they wait for frames, and the SDK's own tasks need the pool meanwhile.
@Suite(.serialized, .runsOffThePool)
struct RuntimeTests {}
