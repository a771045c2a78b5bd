// The three patterns of "Handling widgetPerformUpdate in an iOS Today Extension" (and the async
// form), each the principal class of its own Today extension in TodayPatterns.app: the
// Info.plist of each .appex names one class in NSExtension.NSExtensionPrincipalClass, and
// NSExtensionMain() finds it by name. Written as the article writes them (Swift 5 mode); the
// UIKit views are gone, so `import NotificationCenter` brings UIViewController.

import NotificationCenter

NSExtensionMain()
