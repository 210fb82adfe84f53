public import COpenCoreMotion

@c @implementation
public func ocm_status_string(_ status: ocm_status) -> UnsafePointer<CChar>? {
    switch status {
    case OCM_STATUS_OK: CString.pointer("ok")
    case OCM_STATUS_END: CString.pointer("end of stream")
    case OCM_STATUS_INVALID_ARGUMENT: CString.pointer("invalid argument")
    case OCM_STATUS_INVALID_HANDLE: CString.pointer("invalid handle")
    case OCM_STATUS_IO_ERROR: CString.pointer("input/output error")
    case OCM_STATUS_MALFORMED_RECORDING: CString.pointer("malformed recording")
    case OCM_STATUS_NOT_AVAILABLE: CString.pointer("not available")
    case OCM_STATUS_MALFORMED_BOARD: CString.pointer("malformed board file")
    case OCM_STATUS_DEVICE_ERROR: CString.pointer("device error")
    case OCM_STATUS_NOT_AUTHORIZED: CString.pointer("not authorized")
    case OCM_STATUS_NO_DATA: CString.pointer("no data yet")
    default: CString.pointer("unknown status")
    }
}

@c @implementation
public func ocm_sensor_name(_ sensor: ocm_sensor) -> UnsafePointer<CChar>? {
    switch sensor {
    case OCM_SENSOR_ACCELEROMETER: CString.pointer("acc")
    case OCM_SENSOR_GYROSCOPE: CString.pointer("gyr")
    case OCM_SENSOR_MAGNETOMETER: CString.pointer("mag")
    case OCM_SENSOR_BAROMETER: CString.pointer("baro")
    case OCM_SENSOR_THERMOMETER: CString.pointer("temp")
    default: nil
    }
}
