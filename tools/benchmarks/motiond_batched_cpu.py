#!/usr/bin/env python3
"""CPU use and drops of motiond serving batched streams (protocol version 3), beside its idle
cost and a 100 Hz device-motion client, on a simulated FIFO board.

Starts MOTIOND (build it with `swift build -c release --product motiond`) on a temporary socket
and history, then for each scenario connects its clients, reads everything for SECONDS and
reports the daemon's CPU time over that span (utime + stime from /proc, as % of one core),
the samples received, batches dropped (droppedBatches notices and jumps in batch numbers),
samples missing by their timestamps, and the FIFO loss the daemon reported.

usage: tools/benchmarks/motiond_batched_cpu.py MOTIOND [BOARD] [SECONDS]
       (BOARD default boards/sim-gy-521.board, SECONDS default 12)
"""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

MAGIC = b"OCMD"
DEVICE_MOTION, BATCHED_ACCELEROMETER, BATCHED_DEVICE_MOTION = 3, 9, 10


def frame(kind, body):
    return struct.pack("<IB", len(body) + 1, kind) + body


def hello(name):
    encoded = name.encode()
    return frame(0x01, MAGIC + struct.pack("<HH", 3, len(encoded)) + encoded)


def subscribe(request, stream, interval):
    return frame(0x02, struct.pack("<IBddB", request, stream, interval, 0.0, 0))


class Client(threading.Thread):
    """One connection: subscribes to `streams` ((stream, interval) pairs) and tallies what comes."""

    def __init__(self, path, name, streams):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.sendall(hello(name))
        for index, (stream, interval) in enumerate(streams):
            self.sock.sendall(subscribe(index + 1, stream, interval))
        self.samples = {}      # stream -> samples received
        self.batches = {}      # stream -> batches received
        self.dropped = {}      # stream -> (batches, samples) from notices, or updates from `dropped`
        self.skipped = {}      # stream -> batches missing by their numbers
        self.missing = {}      # stream -> samples missing between batches by their times
        self.fifo = {}         # stream -> (missing, overflows) the daemon reported
        self.last_sequence, self.last_time = {}, {}
        self.counting = False
        self.stopped = False

    def read_exactly(self, count, buffer):
        while len(buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError
            buffer += chunk
        return buffer

    def run(self):
        buffer = b""
        try:
            while not self.stopped:
                buffer = self.read_exactly(5, buffer)
                length, kind = struct.unpack_from("<IB", buffer)
                buffer = self.read_exactly(4 + length, buffer)
                body, buffer = buffer[5:4 + length], buffer[4 + length:]
                if self.counting:
                    self.take(kind, body)
        except (EOFError, OSError):
            pass

    def take(self, kind, body):
        if kind == 0x83:  # samples: u8 stream, u32 count
            stream, count = struct.unpack_from("<BI", body)
            self.samples[stream] = self.samples.get(stream, 0) + count
        elif kind == 0x84:  # dropped: u8 stream, u64 count, u64 total
            stream, count, _ = struct.unpack_from("<BQQ", body)
            self.dropped[stream] = self.dropped.get(stream, 0) + count
        elif kind == 0x8A:  # batch: u8 stream, u32 sequence, u16 rate, u64 missing, u64 overflows, i64 base, u32 count, records
            stream, sequence, rate, missing, overflows, base, count = struct.unpack_from("<BIHQQqI", body)
            record = 32 if stream == BATCHED_ACCELEROMETER else 146
            first = base + round(struct.unpack_from("<d", body, 35)[0] * 1e9)
            last = base + round(struct.unpack_from("<d", body, 35 + (count - 1) * record)[0] * 1e9)
            period = 1e9 / rate
            if stream in self.last_sequence:
                self.skipped[stream] = self.skipped.get(stream, 0) + sequence - self.last_sequence[stream] - 1
                gap = first - self.last_time[stream]
                if gap > 1.5 * period:
                    self.missing[stream] = self.missing.get(stream, 0) + round(gap / period) - 1
            self.last_sequence[stream], self.last_time[stream] = sequence, last
            self.samples[stream] = self.samples.get(stream, 0) + count
            self.batches[stream] = self.batches.get(stream, 0) + 1
            self.fifo[stream] = (missing, overflows)
        elif kind == 0x8B:  # droppedBatches: u8 stream, u64 batches, u64 samples, totals
            stream, batches, samples, _, _ = struct.unpack_from("<BQQQQ", body)
            old = self.dropped.get(stream, (0, 0))
            self.dropped[stream] = (old[0] + batches, old[1] + samples)

    def close(self):
        self.stopped = True
        self.sock.close()


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    motiond = sys.argv[1]
    board = sys.argv[2] if len(sys.argv) > 2 else "boards/sim-gy-521.board"
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 12
    folder = tempfile.mkdtemp(prefix="motiond-cpu-")
    path = f"{folder}/motiond.sock"
    open(f"{folder}/policy", "w").close()
    daemon = subprocess.Popen([motiond, "--board", board, "--socket", path, "--history", f"{folder}/history",
                               "--policy", f"{folder}/policy"], stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        time.sleep(2)
        scenarios = [
            ("idle (history only)", []),
            ("100 Hz device motion", [[(DEVICE_MOTION, 0.01)]]),
            ("batched accelerometer + device motion", [[(BATCHED_ACCELEROMETER, 0), (BATCHED_DEVICE_MOTION, 0)]]),
            ("batched + a 100 Hz device-motion client", [[(BATCHED_ACCELEROMETER, 0), (BATCHED_DEVICE_MOTION, 0)], [(DEVICE_MOTION, 0.01)]]),
        ]
        print(f"motiond {motiond} on {board}, {seconds:.0f} s a scenario, CPU as % of one core")
        for name, clients in scenarios:
            connections = [Client(path, f"cpu {name} {index}", streams) for index, streams in enumerate(clients)]
            for connection in connections:
                connection.start()
            time.sleep(2)  # the switch to the FIFO rate and the first batch are not measured
            for connection in connections:
                connection.counting = True
            cpu, wall = cpu_seconds(daemon.pid), time.monotonic()
            time.sleep(seconds)
            cpu, wall = cpu_seconds(daemon.pid) - cpu, time.monotonic() - wall
            for connection in connections:
                connection.counting = False
            print(f"- {name}: {100 * cpu / wall:.1f} % CPU")
            for connection in connections:
                for stream, count in sorted(connection.samples.items()):
                    print(f"    stream {stream}: {count} samples ({count / wall:.0f}/s), {connection.batches.get(stream, 0)} batches, "
                          f"dropped {connection.dropped.get(stream, 0)}, batches skipped {connection.skipped.get(stream, 0)}, "
                          f"missing by time {connection.missing.get(stream, 0)}, FIFO (missing, overflows) {connection.fifo.get(stream, (0, 0))}")
                connection.close()
            time.sleep(2)  # back at the board's own rate
    finally:
        daemon.terminate()
        daemon.wait()
        subprocess.run(["rm", "-rf", folder])


if __name__ == "__main__":
    main()
