// NotificationCenter for Sandglass: `import NotificationCenter` resolves here and brings the
// Today-extension API of the SDK — `NCWidgetProviding`, `NCUpdateResult`, the minimal
// `UIViewController` a principal class subclasses, and `NSExtensionMain()` — plus Foundation.
// It comes with the `WidgetKit` library product.

@_exported import Foundation

@_exported import enum WidgetKit.NCUpdateResult
@_exported import protocol WidgetKit.NCWidgetProviding
@_exported import func WidgetKit.NSExtensionMain
@_exported import class WidgetKit.UIViewController
