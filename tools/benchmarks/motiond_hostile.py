#!/usr/bin/env python3
"""motiond under hostile clients (issue 22): what the daemon holds and how an honest client
fares while one local user attacks it.

Starts MOTIOND on a temporary socket and history (simulated walker board), keeps an honest
client asking `status` every 20 ms over its own connection (each round trip timed), and runs:

  crowd     COUNT idle connections opened and held: the daemon's descriptors (/proc/PID/fd)
  churn     1 000 hostile connection attempts (silent, garbage, half a frame, hello-and-gone)
  greedy    a client subscribed to every stream that sends status requests for 5 s and never
            reads: the daemon's resident memory (VmRSS) before and after

and prints, per phase, the honest client's answers, median, p99 and largest latency and any
error. The honest client is the attacker's user too (it connects first), the hardest case for
a per-user limit.

usage: tools/benchmarks/motiond_hostile.py MOTIOND [COUNT]   (COUNT default 3000)
"""
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

MAGIC = b"OCMD"


def frame(kind, body):
    return struct.pack("<IB", len(body) + 1, kind) + body


def hello(name):
    encoded = name.encode()
    return frame(0x01, MAGIC + struct.pack("<HH", 3, len(encoded)) + encoded)


def status(request):
    return frame(0x08, struct.pack("<I", request))


def subscribe(request, stream, interval):
    return frame(0x02, struct.pack("<IBddB", request, stream, interval, 0.0, 0))


def read_frame(sock):
    header = b""
    while len(header) < 5:
        chunk = sock.recv(5 - len(header))
        if not chunk:
            raise EOFError("closed")
        header += chunk
    length, kind = struct.unpack("<IB", header)
    body = b""
    while len(body) < length - 1:
        chunk = sock.recv(length - 1 - len(body))
        if not chunk:
            raise EOFError("closed")
        body += chunk
    return kind, body


class Honest(threading.Thread):
    def __init__(self, path):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.sendall(hello("honest"))
        read_frame(self.sock)
        self.latencies, self.errors, self.running = [], [], True

    def run(self):
        request = 1
        while self.running:
            start = time.monotonic()
            try:
                self.sock.sendall(status(request))
                while True:
                    kind, body = read_frame(self.sock)
                    if kind in (0x89, 0x8F) and struct.unpack("<I", body[:4])[0] == request:
                        break
                if kind == 0x8F:
                    self.errors.append(body)
            except Exception as error:  # noqa: BLE001 - reported
                self.errors.append(repr(error))
                return
            self.latencies.append(time.monotonic() - start)
            request += 1
            time.sleep(0.02)

    def take(self):
        taken, self.latencies = self.latencies, []
        return taken


def summary(latencies):
    if not latencies:
        return "no answers"
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return "%d answers, median %.1f ms, p99 %.1f ms, max %.1f ms" % (len(ordered), ordered[len(ordered) // 2] * 1e3, p99 * 1e3, ordered[-1] * 1e3)


def descriptors(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def resident_kib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return sock


def main():
    motiond = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 500), hard))
    folder = tempfile.mkdtemp(prefix="motiond-hostile-")
    os.chmod(folder, 0o755)
    path = folder + "/motiond.sock"
    with open(folder + "/policy", "w") as policy:
        policy.write("allow 65534\n")
    daemon = subprocess.Popen([motiond, "--board", "sim-walker.board", "--history", folder + "/history", "--socket", path,
                               "--policy", folder + "/policy"], stderr=open(folder + "/log", "w"))
    try:
        for _ in range(200):
            if os.path.exists(path):
                break
            time.sleep(0.05)
        time.sleep(0.5)
        honest = Honest(path)
        honest.start()
        time.sleep(1)
        honest.take()
        baseline = descriptors(daemon.pid)

        crowd = []
        for _ in range(count):
            try:
                crowd.append(connect(path))
            except OSError as error:
                print("crowd: connect failed after %d: %s" % (len(crowd), error))
                break
        time.sleep(1)
        print("crowd: %d idle connections held open: motiond holds %d descriptors (%d before)" % (len(crowd), descriptors(daemon.pid), baseline))
        print("  honest: " + summary(honest.take()))
        for sock in crowd:
            sock.close()
        time.sleep(1)
        print("  after closing them: %d descriptors" % descriptors(daemon.pid))

        honest.take()
        payloads = [b"", b"GET / HTTP/1.1\r\n\r\n", hello("half")[:7], hello("gone"), b"\xff\xff\xff\x00\x01"]
        started = time.monotonic()
        for index in range(1000):
            try:
                sock = connect(path)
                if payloads[index % len(payloads)]:
                    sock.sendall(payloads[index % len(payloads)])
                sock.close()
            except OSError:
                pass
        print("churn: 1000 hostile connection attempts in %.1f s" % (time.monotonic() - started))
        time.sleep(0.5)
        print("  honest: " + summary(honest.take()))

        before = resident_kib(daemon.pid)
        greedy = connect(path)
        greedy.sendall(hello("greedy") + b"".join(subscribe(index + 1, stream, 0.0) for index, stream in enumerate([0, 1, 3, 4, 5, 6, 7])))
        greedy.setblocking(False)
        burst = b"".join(status(100 + index) for index in range(512))
        started, taken = time.monotonic(), 0
        while time.monotonic() - started < 5:
            try:
                taken += greedy.send(burst)
            except BlockingIOError:
                time.sleep(0.01)
        time.sleep(1)
        print("greedy: never reads; the socket took %d status requests in 5 s; motiond resident %d KiB before, %d KiB after"
              % (taken // 13, before, resident_kib(daemon.pid)))
        print("  honest: " + summary(honest.take()))
        honest.running = False
        print("honest client errors: %s" % (honest.errors or "none"))
        greedy.close()
    finally:
        daemon.terminate()
        daemon.wait()
        lines = open(folder + "/log").read().splitlines()
        print("motiond log: %d lines" % len(lines))
        for line in lines[:12]:
            print("  " + line[:200])


if __name__ == "__main__":
    main()
