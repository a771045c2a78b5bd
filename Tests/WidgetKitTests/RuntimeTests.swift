import SandglassIPC
import Testing

@testable import WidgetKit

/// Every test that runs a runtime over a socketpair. Serialized: the tests block a thread while
/// they wait for frames, and the machine has two cores.
@Suite(.serialized, .runsOffThePool)
struct RuntimeTests {}
