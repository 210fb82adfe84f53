#!/usr/bin/env python3
"""A bicycle ride with the phone in a trouser pocket, simulated, through `motionctl replay`.

    python3 tools/benchmarks/pocket_ride.py --motionctl .build/release/motionctl [--out /tmp/pocket-ride]

No data set here holds a ride with the phone on the rider's leg, so the ride is built from the
thigh's kinematics (the numbers are typical of a seated rider, not fitted to anything):
- seated 5 s, then pedalling for 138 s at a steady cadence (60, 75 and 90 rpm; a 3 % random walk
  of the crank's speed), then seated again;
- the thigh swings ±20° about 30° below the horizontal once a crank revolution; the phone lies on
  it 0.25 m from the hip, screen outwards, its y axis along the thigh and x along the hip's axis;
- its specific force: gravity and the pocket's tangential (r θ'') and centripetal (r θ'²)
  acceleration in the thigh's frame, the torso's sway (0.4 m/s² along the thigh at the
  cadence) and road vibration through the saddle (white noise through `band`, 5–20 Hz: about
  0.8 / 0.5 / 1.3 m/s² rms in the world's x / y / z while pedalling), plus 0.03 m/s² of noise;
  its gyroscope: θ' about x plus 0.005 rad/s of noise; both at 100 Hz.

Prints, per cadence, the steps the pedometer credits and the activity delivered (seconds of
each call while pedalling, and when `cycling` is first delivered).
"""
import argparse, csv, gzip, math, pathlib, subprocess, sys

import numpy as np

RATE = 100.0
SECONDS = 150.0
START, END = 5.0, 145.0


def band(noise, low=5.0, high=20.0):
    """White noise through a 20 Hz minus a 5 Hz first-order low-pass (the band of road vibration)."""
    fast = slow = 0.0
    out = np.empty_like(noise)
    a_fast, a_slow = min(1.0, 2 * math.pi * high / RATE), min(1.0, 2 * math.pi * low / RATE)
    for i, x in enumerate(noise):
        fast += (x - fast) * a_fast
        slow += (fast - slow) * a_slow
        out[i] = fast - slow
    return out


def ride(rpm, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(0, SECONDS, 1 / RATE)
    pedalling = np.clip((t - START) / 2, 0, 1) * np.clip((END - t) / 2, 0, 1)
    speed = 1 + 0.03 * np.cumsum(rng.standard_normal(len(t))) / math.sqrt(len(t))
    phase = 2 * math.pi * np.cumsum(rpm / 60 * speed) / RATE
    theta = math.radians(30) + math.radians(20) * pedalling * np.sin(phase)
    rate = np.gradient(theta, 1 / RATE)
    angular = np.gradient(rate, 1 / RATE)
    r = 0.25
    along = np.stack([np.cos(theta), 0 * t, -np.sin(theta)], 1)   # the thigh, forward and down
    normal = np.stack([np.sin(theta), 0 * t, np.cos(theta)], 1)   # out of the pocket
    turning = np.stack([-np.sin(theta), 0 * t, -np.cos(theta)], 1)  # d(along)/dθ
    force = r * (angular[:, None] * turning - (rate ** 2)[:, None] * along) + np.array([0, 0, 9.81])
    moving = (pedalling > 0)[:, None]
    # Unit white noise through the band keeps about 0.75 of its rms: 0.78 / 0.52 / 1.30 m/s².
    road = 8 / 2.3
    force = force + moving * road * np.stack([band(rng.standard_normal(len(t))) * 0.3,
                                              band(rng.standard_normal(len(t))) * 0.2,
                                              band(rng.standard_normal(len(t))) * 0.5], 1)
    lateral = np.array([0, 1, 0])
    acc = np.stack([force @ lateral, np.sum(force * along, 1), np.sum(force * normal, 1)], 1)
    acc[:, 1] += 0.4 * pedalling * np.sin(phase + 0.5)
    acc += 0.03 * rng.standard_normal(acc.shape)
    gyr = np.stack([rate, 0 * t, 0 * t], 1) + 0.005 * rng.standard_normal(acc.shape)
    return t, acc, gyr


def write(path, t, acc, gyr):
    with gzip.open(path, "wt") as f:
        f.write("# ocm-recording 1\n# device: simulated phone in a trouser pocket, pedalling (tools/benchmarks/pocket_ride.py)\n"
                "# carry: front_pocket\nt,sensor,x,y,z\n")
        for i in range(len(t)):
            f.write(f"{t[i]:.6f},acc,{acc[i, 0]:.4f},{acc[i, 1]:.4f},{acc[i, 2]:.4f}\n")
            f.write(f"{t[i] + 1e-6:.6f},gyr,{gyr[i, 0]:.5f},{gyr[i, 1]:.5f},{gyr[i, 2]:.5f}\n")


def activity(path):
    """Seconds of each delivered call while pedalling, and when cycling is first delivered."""
    rows = list(csv.DictReader(open(path)))
    flags = ["stationary", "walking", "running", "automotive", "cycling", "unknown"]
    seconds, first_cycling = {}, None
    for row, following in zip(rows, rows[1:] + [None]):
        start = max(float(row["delivered_t"]), START)
        end = min(float(following["delivered_t"]) if following else SECONDS, END)
        called = "+".join(f for f in flags if row[f] == "1") or "none"
        if end > start:
            seconds[called] = seconds.get(called, 0) + end - start
        if "cycling" in called and first_cycling is None:
            first_cycling = float(row["delivered_t"])
    return seconds, first_cycling


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("/tmp/pocket-ride"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"| cadence | revolutions | steps credited | cycling first delivered | calls while pedalling (s) |\n|---|---|---|---|---|")
    for seed, rpm in enumerate((60, 75, 90), start=1):
        recording = args.out / f"pocket_ride_{rpm}rpm.csv.gz"
        write(recording, *ride(rpm, seed))
        outputs = args.out / f"pocket_ride_{rpm}rpm"
        subprocess.run([args.motionctl, "replay", str(recording), "--out", str(outputs)], check=True, capture_output=True)
        steps = sum(1 for _ in open(outputs / "steps.csv")) - 1
        seconds, first = activity(outputs / "activity.csv")
        calls = ", ".join(f"{k} {v:.0f}" for k, v in sorted(seconds.items(), key=lambda kv: -kv[1]))
        first_text = "never" if first is None else f"{first - START:.1f} s after the start"
        print(f"| {rpm} rpm | {round(rpm / 60 * (END - START))} | {steps} | {first_text} | {calls} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
