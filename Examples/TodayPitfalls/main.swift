// Today extensions that get widgetPerformUpdate wrong, each the principal class of its own
// extension in TodayPitfalls.app: the naive synchronous version that blocks the main thread,
// one that never calls its completion handler, and one that calls it twice.

import NotificationCenter

NSExtensionMain()
