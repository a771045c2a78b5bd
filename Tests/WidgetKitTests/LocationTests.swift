import CoreLocation
import Dispatch
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

/// Records what a `CLLocationManager` told its delegate, on the main thread.
final class RecordingLocationDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    enum Call: Equatable {
        case authorization(CLAuthorizationStatus, onMain: Bool)
        case legacyAuthorization(CLAuthorizationStatus)
        case locations([CLLocationCoordinate2D], onMain: Bool)
        case failure(CLError.Code?)
    }

    private let calls = Mutex<[Call]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        record(.authorization(manager.authorizationStatus, onMain: isOnMainQueue()))
    }

    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        record(.legacyAuthorization(status))
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        record(.locations(locations.map(\.coordinate), onMain: isOnMainQueue()))
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        record(.failure((error as? CLError)?.code))
    }

    private func record(_ call: Call) {
        calls.withLock { $0.append(call) }
        arrived.signal()
    }

    /// The next `count` calls, waiting at most ``HostEnd/patience`` for each.
    func next(_ count: Int) throws -> [Call] {
        for _ in 0..<count {
            guard arrived.wait(timeout: .now() + HostEnd.patience) == .success else {
                throw HostEndError(
                    description: "the delegate was not called in \(Int(HostEnd.patience)) s (calls so far: \(calls.withLock { $0 }))")
            }
        }
        return calls.withLock { all in
            let taken = Array(all.prefix(count))
            all.removeFirst(min(count, all.count))
            return taken
        }
    }
}

extension RuntimeTests {
    /// The CoreLocation module over a real socketpair: authorization as the host sends it,
    /// requests, fixes and errors, delegate calls on the main thread.
    @Suite("CoreLocation")
    struct LocationTests {
        /// A harness installed as the process's runtime, after the handshake and an authorization.
        private func harness(_ status: AuthorizationStatusCode, approved: Bool) throws -> RuntimeHarness {
            let harness = try RuntimeHarness(widgets: [], installAsCurrent: true)
            try harness.handshake()
            try harness.host.send(.locationAuthorization(LocationAuthorizationPayload(status: status, widgetApproved: approved)))
            try harness.host.expectNothingMore() // the runtime has read it
            return harness
        }

        @Test("the delegate hears the authorization when it is set, and on every change (both callbacks)")
        func authorization() throws {
            let harness = try harness(.authorizedWhenInUse, approved: true)
            let manager = CLLocationManager()
            #expect(manager.authorizationStatus == .authorizedWhenInUse)
            #expect(manager.isAuthorizedForWidgetUpdates)
            let delegate = RecordingLocationDelegate()
            manager.delegate = delegate
            #expect(
                try delegate.next(2) == [.authorization(.authorizedWhenInUse, onMain: true), .legacyAuthorization(.authorizedWhenInUse)])

            try harness.host.send(.locationAuthorization(LocationAuthorizationPayload(status: .authorizedWhenInUse, widgetApproved: false)))
            #expect(
                try delegate.next(2) == [.authorization(.authorizedWhenInUse, onMain: true), .legacyAuthorization(.authorizedWhenInUse)])
            #expect(!manager.isAuthorizedForWidgetUpdates, "When In Use, not extended to widgets")

            try harness.host.send(.locationAuthorization(LocationAuthorizationPayload(status: .denied, widgetApproved: false)))
            #expect(try delegate.next(2) == [.authorization(.denied, onMain: true), .legacyAuthorization(.denied)])
            #expect(!manager.isAuthorizedForWidgetUpdates)
            _ = harness.finish()
        }

        @Test("requestLocation: one locationRequest(.once); the fix reaches didUpdateLocations on the main thread, once")
        func requestLocation() throws {
            let harness = try harness(.authorizedAlways, approved: true)
            let manager = CLLocationManager()
            let delegate = RecordingLocationDelegate()
            manager.delegate = delegate
            _ = try delegate.next(2)
            manager.requestLocation()
            try harness.host.expect("locationRequest(.once)") { message -> Void? in
                if case .locationRequest(.once) = message { return () }
                return nil
            }
            try harness.host.send(.locationUpdate([LocationPayload(latitude: 52.52, longitude: 13.405, timestamp: 1_800_000_000)]))
            #expect(try delegate.next(1) == [.locations([CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405)], onMain: true)])
            #expect(manager.location?.timestamp == Date(timeIntervalSince1970: 1_800_000_000))
            let paris = CLLocation(latitude: 48.8566, longitude: 2.3522)
            #expect(abs(manager.location!.distance(from: paris) - 877_500) < 2_000)

            // A fix nobody asked for is not delivered again.
            try harness.host.send(.locationUpdate([LocationPayload(latitude: 1, longitude: 2, timestamp: 0)]))
            try harness.host.send(.locationFailure(.locationUnknown))
            try harness.host.expectNothingMore()
            manager.requestLocation()
            _ = try harness.host.expect("locationRequest") { message -> Void? in
                if case .locationRequest(.once) = message { return () }
                return nil
            }
            try harness.host.send(.locationFailure(.locationUnknown))
            #expect(try delegate.next(1) == [.failure(.locationUnknown)])
            _ = harness.finish()
        }

        @Test("a refusal is CLError.denied; CLError matches by code")
        func denied() throws {
            let harness = try harness(.authorizedWhenInUse, approved: false)
            let manager = CLLocationManager()
            let delegate = RecordingLocationDelegate()
            manager.delegate = delegate
            _ = try delegate.next(2)
            manager.requestLocation()
            _ = try harness.host.expect("locationRequest") { message -> Void? in
                if case .locationRequest(.once) = message { return () }
                return nil
            }
            try harness.host.send(.locationFailure(.denied))
            #expect(try delegate.next(1) == [.failure(.denied)])
            let error: any Error = CLError(.denied)
            #expect(CLError.denied ~= error)
            #expect(!(CLError.locationUnknown ~= error))
            #expect((error as NSError).domain == kCLErrorDomain)
            #expect((error as NSError).code == 1)
            _ = harness.finish()
        }

        @Test("startUpdatingLocation and stopUpdatingLocation: updates while started; stop sent when the last manager stops")
        func updating() throws {
            let harness = try harness(.authorizedAlways, approved: true)
            let manager = CLLocationManager()
            let delegate = RecordingLocationDelegate()
            manager.delegate = delegate
            _ = try delegate.next(2)
            manager.startUpdatingLocation()
            _ = try harness.host.expect("locationRequest(.start)") { message -> Void? in
                if case .locationRequest(.start) = message { return () }
                return nil
            }
            try harness.host.send(.locationUpdate([LocationPayload(latitude: 10, longitude: 20, timestamp: 0)]))
            try harness.host.send(.locationUpdate([LocationPayload(latitude: 11, longitude: 21, timestamp: 60)]))
            #expect(
                try delegate.next(2) == [
                    .locations([CLLocationCoordinate2D(latitude: 10, longitude: 20)], onMain: true),
                    .locations([CLLocationCoordinate2D(latitude: 11, longitude: 21)], onMain: true)
                ])
            manager.stopUpdatingLocation()
            _ = try harness.host.expect("locationRequest(.stop)") { message -> Void? in
                if case .locationRequest(.stop) = message { return () }
                return nil
            }
            _ = harness.finish()
        }

        @Test("an in-process runtime beside the process's: its authorization and fixes do not reach the process's managers")
        func inProcessRuntimeIsApart() async throws {
            let harness = try harness(.authorizedAlways, approved: true)
            let manager = CLLocationManager()
            let delegate = RecordingLocationDelegate()
            manager.delegate = delegate
            _ = try delegate.next(2)

            // A second runtime in this process, as the host's embedded backend runs one.
            let (other, otherFD) = try HostEnd.makePair()
            defer { other.close() }
            let widgets = await MainActor.run { InProcessRuntime.Widgets(bundle: TestBundle.self) }
            let inProcess = InProcessRuntime(widgets: widgets, bundleIdentifier: "com.example.other", environment: [:], fd: otherFD) { _ in
            }
            inProcess.start()
            _ = try other.receive() // hello
            try other.send(.welcome(harness.welcome))
            try other.send(.locationAuthorization(LocationAuthorizationPayload(status: .denied, widgetApproved: false)))
            try other.send(.locationUpdate([LocationPayload(latitude: 1, longitude: 2, timestamp: 0)]))
            try other.send(.ping(1))
            _ = try other.expect("pong") { message -> Void? in
                if case .pong = message { return () }
                return nil
            }
            #expect(manager.authorizationStatus == .authorizedAlways, "the other runtime's denial is its own")

            try harness.host.send(.locationAuthorization(LocationAuthorizationPayload(status: .authorizedWhenInUse, widgetApproved: true)))
            #expect(
                try delegate.next(2) == [.authorization(.authorizedWhenInUse, onMain: true), .legacyAuthorization(.authorizedWhenInUse)],
                "the first call the delegate hears is its own runtime's change")
            _ = harness.finish()
        }
    }
}
