/// What a `CLLocationManager` tells its delegate. Every method is optional, as in Apple's
/// protocol: each has a default implementation that does nothing.
///
/// Calls arrive on the extension's main queue.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// New locations, the most recent last.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// No location: `CLError(.locationUnknown)` when none can be had now, `CLError(.denied)`
    /// when location is not authorized for this widget.
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// Called when the delegate is first set (the manager was created) and on every change of
    /// the authorization (`authorizationStatus`, `isAuthorizedForWidgetUpdates`).
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    /// The old form of `locationManagerDidChangeAuthorization(_:)`, called at the same times.
    @available(*, deprecated, message: "Use locationManagerDidChangeAuthorization(_:)")
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
}

extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
    @available(*, deprecated, message: "Use locationManagerDidChangeAuthorization(_:)")
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
}
