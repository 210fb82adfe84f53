internal import MotionEngine

/// The pedometer log's records: what `PedometerHistory` keeps in memory, one record per step
/// and per floor, booked the same way (times never go back; a step less than 2 s after the
/// previous one adds that interval to the active time and its length to the active distance).
///
/// Lengths are stored in whole µm, so range sums are exact integers: 24 hourly queries add up
/// to the daily one to the last digit.
enum PedometerRecord: Equatable {
    case step(time: Int64, lengthMicrometres: Int64, activeNanoseconds: Int64)
    case floor(time: Int64, ascended: Bool)

    var time: Int64 {
        switch self {
        case .step(let time, _, _), .floor(let time, _): time
        }
    }
}

/// Payload: per record a tag byte (0 step, 1 floor up, 2 floor down), its time as a zigzag
/// varint difference from the previous record's (the first from the block's first time, so 0),
/// and for a step its length (µm) and active time (ns) as varints. About 10 bytes a step.
enum PedometerCodec {
    static func encode(_ records: [PedometerRecord]) -> LogBlock {
        var writer = ByteWriter(reservingCapacity: records.count * 12)
        var previous = records[0].time
        for record in records {
            switch record {
            case .step(let time, let length, let active):
                writer.byte(0)
                writer.signedVarint(time - previous)
                writer.varint(UInt64(max(0, length)))
                writer.varint(UInt64(max(0, active)))
            case .floor(let time, let ascended):
                writer.byte(ascended ? 1 : 2)
                writer.signedVarint(time - previous)
            }
            previous = record.time
        }
        return LogBlock(count: records.count, firstTime: records[0].time, lastTime: previous, payload: writer.bytes)
    }

    static func decode(_ block: LogBlock) -> [PedometerRecord]? {
        var reader = ByteReader(block.payload)
        var records: [PedometerRecord] = []
        var time = block.firstTime
        for _ in 0..<block.count {
            guard let tag = reader.byte(), let change = reader.signedVarint() else { return nil }
            time += change
            switch tag {
            case 0:
                guard let length = reader.varint(), let active = reader.varint() else { return nil }
                records.append(.step(time: time, lengthMicrometres: Int64(length), activeNanoseconds: Int64(active)))
            case 1, 2:
                records.append(.floor(time: time, ascended: tag == 1))
            default:
                return nil
            }
        }
        return reader.isAtEnd ? records : nil
    }
}

/// Range sums in integers (µm, ns), turned into `PedometerRangeTotals` once at the end.
struct PedometerSums {
    var steps = 0
    var micrometres: Int64 = 0
    var floorsAscended = 0
    var floorsDescended = 0
    var activeNanoseconds: Int64 = 0
    var activeMicrometres: Int64 = 0

    mutating func add(_ record: PedometerRecord) {
        switch record {
        case .step(_, let length, let active):
            steps += 1
            micrometres += length
            if active > 0 {
                activeNanoseconds += active
                activeMicrometres += length
            }
        case .floor(_, let ascended):
            if ascended { floorsAscended += 1 } else { floorsDescended += 1 }
        }
    }

    var totals: PedometerRangeTotals {
        PedometerRangeTotals(numberOfSteps: steps, distanceMeters: Double(micrometres) / 1e6,
                             floorsAscended: floorsAscended, floorsDescended: floorsDescended,
                             activeNanoseconds: activeNanoseconds, activeDistanceMeters: Double(activeMicrometres) / 1e6)
    }
}
