internal import MotionEngine
internal import MotionAlgorithms

/// The activity log's payload: every `MotionActivityUpdate` as the stage delivered it
/// (confidence changes included), so that a query replays them through `ActivityHistory` and
/// answers exactly as the in-memory history would, smoothing and all. A few updates a minute:
/// about 10 bytes each.
///
/// Per update: flags, confidence (one byte each), then the start and delivery times as zigzag
/// varint differences from the block's first time (the first update's delivery time).
enum ActivityCodec {
    static func encode(_ updates: [MotionActivityUpdate], recordTimes: [Int64]) -> LogBlock {
        let base = recordTimes[0]
        var writer = ByteWriter(reservingCapacity: updates.count * 12)
        for update in updates {
            writer.byte(update.activity.flags.rawValue)
            writer.byte(update.activity.confidence.rawValue)
            writer.signedVarint(update.activity.startNanoseconds - base)
            writer.signedVarint(update.deliveredNanoseconds - base)
        }
        return LogBlock(count: updates.count, firstTime: base, lastTime: recordTimes[recordTimes.count - 1], payload: writer.bytes)
    }

    static func decode(_ block: LogBlock) -> [MotionActivityUpdate]? {
        var reader = ByteReader(block.payload)
        var updates: [MotionActivityUpdate] = []
        for _ in 0..<block.count {
            guard let flags = reader.byte(), let rawConfidence = reader.byte(),
                  let confidence = MotionActivityConfidence(rawValue: rawConfidence),
                  let start = reader.signedVarint(), let delivered = reader.signedVarint() else { return nil }
            let estimate = MotionActivityEstimate(flags: MotionActivityFlags(rawValue: flags), confidence: confidence,
                                                  startNanoseconds: block.firstTime + start)
            updates.append(MotionActivityUpdate(activity: estimate, deliveredNanoseconds: block.firstTime + delivered))
        }
        return reader.isAtEnd ? updates : nil
    }
}
