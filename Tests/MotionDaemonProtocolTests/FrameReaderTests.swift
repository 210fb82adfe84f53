import MotionDaemonProtocol
import Testing

/// Frames come out whole however the bytes arrive, and anything that is not this protocol is
/// refused at once with an error saying so.
@Suite struct FrameReaderTests {
    static let frames: [Frame] = [
        ClientMessage.hello(version: 1, name: "test").frame,
        ClientMessage.subscribe(request: 7, stream: .gyroscope, interval: 0.02, from: 0, frame: 0).frame,
        Frame(type: 0x83, body: [UInt8](repeating: 0xAB, count: 70_000)),  // longer than one 64 KB read
        ClientMessage.status(request: 9).frame,
    ]
    static let stream = frames.flatMap(\.bytes)

    @Test func framesComeOutWholeWhenBytesArriveOneByOne() throws {
        var reader = FrameReader()
        var out: [Frame] = []
        for byte in Self.stream {
            reader.append([byte])
            while let frame = try reader.nextFrame() { out.append(frame) }
        }
        #expect(out == Self.frames)
        #expect(reader.bufferedByteCount == 0)
    }

    @Test func framesComeOutWholeWhenManyArriveInOneRead() throws {
        var reader = FrameReader()
        reader.append(Self.stream + [5, 0])  // and the start of another frame's length
        var out: [Frame] = []
        while let frame = try reader.nextFrame() { out.append(frame) }
        #expect(out == Self.frames)
        #expect(reader.bufferedByteCount == 2)
    }

    @Test func theBlockingReaderHandlesShortReadsAndAMidFrameClose() throws {
        var source = Self.stream[...]
        var sizes = [1, 3, 4096, 7, 100_000, 2].makeIterator()
        let read: (UnsafeMutableRawBufferPointer) -> Int = { buffer in
            let size = min(sizes.next() ?? 5, buffer.count, source.count)
            for index in 0..<size { buffer[index] = source[source.startIndex + index] }
            source = source.dropFirst(size)
            return size
        }
        var reader = FrameReader()
        var out: [Frame] = []
        for _ in Self.frames { out.append(try reader.nextFrame(reading: read)) }
        #expect(out == Self.frames)
        // The end of the stream: closed, and mid-frame it says how much of the frame came.
        #expect(throws: ProtocolError(.closed, "the daemon closed the connection")) { try reader.nextFrame(reading: read) }
        source = Self.frames[0].bytes.dropLast(3)
        var second = FrameReader()
        let error = #expect(throws: ProtocolError.self) { try second.nextFrame(reading: read) }
        #expect(error?.kind == .closed && error?.code == Self.frames[0].bytes.count - 3)
        #expect(error?.message.contains("in the middle of a frame") == true)
        // A failed read is reported with its errno.
        var third = FrameReader()
        let failed = #expect(throws: ProtocolError.self) { try third.nextFrame { _ in -104 } }
        #expect(failed?.kind == .readFailed && failed?.code == 104)
    }

    @Test func anOversizeFrameIsRefusedBeforeItsBodyArrives() throws {
        var reader = FrameReader()
        reader.append([0x01, 0x00, 0x10, 0x00])  // 1 MiB + 1
        let error = #expect(throws: ProtocolError.self) { try reader.nextFrame() }
        #expect(error?.kind == .badLength)
        #expect(error?.message.contains("1048577 bytes") == true)
        // The reader stays failed: no frame boundary can be trusted after that.
        reader.append(ClientMessage.status(request: 1).frame.bytes)
        #expect(throws: ProtocolError.self) { try reader.nextFrame() }
    }

    @Test func anEmptyFrameAndHTTPAreNotThisProtocol() throws {
        var empty = FrameReader()
        empty.append([0, 0, 0, 0])
        #expect((#expect(throws: ProtocolError.self) { try empty.nextFrame() })?.kind == .badLength)
        var http = FrameReader()
        http.append(Array("GET / HTTP/1.1\r\n".utf8))
        #expect((#expect(throws: ProtocolError.self) { try http.nextFrame() })?.kind == .badLength)
    }
}
