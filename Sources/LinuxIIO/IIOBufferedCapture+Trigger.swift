import CLibIIO
import Glibc

extension IIOBufferedCapture {
    /// Writes the named trigger to `trigger/current_trigger`, or checks the device has one.
    static func selectTrigger(_ name: String?, device: IIOSensorDevice, _ error: (String, String?) -> IIOError) throws(IIOError) -> String? {
        let handle = device.handle, context = device.context.handle
        let howToTrigger = "Create an hrtimer trigger (`mount -t configfs none /sys/kernel/config; mkdir /sys/kernel/config/iio/triggers/hrtimer/t0`, rate in its sampling_frequency) and pass its name as the trigger (motionctl: `--trigger t0`), or wire the chip's interrupt line in the device tree (`interrupts` property) so the driver registers its own data-ready trigger"
        var current: OpaquePointer?
        let status = iio_device_get_trigger(handle, &current)
        if status == -ENOENT {
            // No trigger/current_trigger: the device fills its buffer itself (hardware FIFO).
            guard let name else { return nil }
            throw error("it takes no trigger (no trigger/current_trigger), so trigger \"\(name)\" cannot drive it", "Its buffer is filled by the chip's FIFO: capture without a trigger")
        }
        guard let name else {
            if let current { return iio_device_get_name(current).map { String(cString: $0) } ?? "?" }
            if status == -ENXIO { return "?" }  // set, but to a trigger libiio does not list
            throw error("it has no trigger (trigger/current_trigger is empty), so its buffer would never fill", howToTrigger)
        }
        guard let trigger = iio_context_find_device(context, name), iio_device_is_trigger(trigger) else {
            let triggers = (0..<iio_context_get_devices_count(context)).compactMap { index -> String? in
                guard let candidate = iio_context_get_device(context, index), iio_device_is_trigger(candidate) else { return nil }
                return iio_device_get_name(candidate).map { String(cString: $0) }
            }
            throw error("there is no trigger named \"\(name)\" (triggers present: \(triggers.isEmpty ? "none" : triggers.joined(separator: ", ")))", howToTrigger)
        }
        let written = iio_device_set_trigger(handle, trigger)
        if written < 0 { throw device.failure("writing \"\(name)\" to trigger/current_trigger", -written) }
        return name
    }
}
