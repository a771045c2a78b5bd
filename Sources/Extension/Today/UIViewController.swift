/// The minimal view controller a Today extension's principal class subclasses.
///
/// UI is out of scope on Linux: this is an `NSObject` with a required `init()`, so that
/// `NSExtensionMain()` can make the class named by `NSExtensionPrincipalClass` from its name
/// (`NSClassFromString`), as the system does. Like UIKit's, it is isolated to the main actor.
///
/// ```swift
/// class TodayViewController: UIViewController, NCWidgetProviding {
///     func widgetPerformUpdate(completionHandler: @escaping (NCUpdateResult) -> Void) { … }
/// }
/// ```
@MainActor
open class UIViewController: NSObject {
    /// Creates the view controller; `NSExtensionMain()` calls this on the main thread.
    public required override init() {
        super.init()
    }

    /// The size the widget would like; recorded nowhere, kept for source compatibility.
    open var preferredContentSize = CGSize.zero

    /// Called once, on the main thread, after `NSExtensionMain()` made the principal class.
    open func viewDidLoad() {}
}
