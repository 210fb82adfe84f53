#!/usr/bin/env python3
"""Our device-motion filter and VQF (Laidig & Seel 2023; `pip install vqf`, its C++ core with
the batch API) on the same trials, scored by ../shared/eval/score_orientation.py, in one run.

    python3 tools/benchmarks/fusion_vs_vqf.py --motionctl .build/release/motionctl \
        --dataset ../shared/datasets/broad [--out /tmp/fusion-bench]

Prints per trial and mean: 9D total / heading / inclination RMSE and 6D inclination RMSE (deg)
for both, then ns per sample for both (per trial the least of `--repeat` runs, median over
trials): VQF's `updateBatch` (C++, I/O excluded) and ours from
`motionctl bench-fusion` (the fixed-point filter over the recording held in memory, I/O
excluded; every sample's attitude read, as VQF's batch returns its quaternions, and also the
whole Core Motion `DeviceMotion` of every sample, printed last). VQF runs causally with default parameters at each trial's median sample interval,
on samples resampled to the gyroscope's timestamps (latest accelerometer/magnetometer sample),
which is what our filter sees too.
"""
import argparse, csv, gzip, json, os, pathlib, subprocess, sys, time
import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
EVAL = (HERE / "../../../shared/eval").resolve()


def read_recording(path):
    rows = {"acc": [], "gyr": [], "mag": []}
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#") or line.startswith("t,"):
                continue
            t, sensor, *values = line.strip().split(",")
            if sensor in rows:
                rows[sensor].append([float(t)] + [float(v) for v in values[:3]])
    return {k: np.array(v, float).reshape(-1, 4) for k, v in rows.items()}


def latest(times, samples):
    """For each time, the latest sample at or before it (the first one before any)."""
    index = np.clip(np.searchsorted(samples[:, 0], times, side="right") - 1, 0, len(samples) - 1)
    return samples[index, 1:]


def run_vqf(recording, nine_d):
    import vqf
    data = read_recording(recording)
    gyr = data["gyr"]
    t = gyr[:, 0]
    acc = latest(t, data["acc"])
    ts = float(np.median(np.diff(t)))
    mag = latest(t, data["mag"]) if nine_d and len(data["mag"]) else None
    filt = vqf.VQF(ts)
    g, a = np.ascontiguousarray(gyr[:, 1:]), np.ascontiguousarray(acc)
    started = time.perf_counter()
    out = filt.updateBatch(g, a, np.ascontiguousarray(mag)) if mag is not None else filt.updateBatch(g, a)
    elapsed = time.perf_counter() - started
    q = out["quat9D"] if mag is not None else out["quat6D"]
    # VQF's 9D frame is ENU (x east, y north); ours and the truth's is x north, y west, z up:
    # q_NWU = qz(−90°) ⊗ q_ENU.
    if mag is not None:
        r = np.array([np.cos(-np.pi / 4), 0, 0, np.sin(-np.pi / 4)])
        w1, x1, y1, z1 = r
        w2, x2, y2, z2 = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
        q = np.column_stack([w1 * w2 - z1 * z2, w1 * x2 - z1 * y2, w1 * y2 + z1 * x2, w1 * z2 + z1 * w2])
    return t, q, elapsed / len(t) * 1e9


def write_device_motion(path, t, q):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        f.write("t,qw,qx,qy,qz\n")
        for ti, qi in zip(t, q):
            f.write(f"{ti:.6f},{qi[0]:.9f},{qi[1]:.9f},{qi[2]:.9f},{qi[3]:.9f}\n")


def score(dataset, outputs, mode):
    done = subprocess.run([sys.executable, str(EVAL / "score_orientation.py"), "--dataset", str(dataset), "--outputs", str(outputs),
                           "--mode", mode], capture_output=True, text=True)
    per_trial = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 5 and (pathlib.Path(dataset) / (parts[0] + ".csv.gz")).exists():
            per_trial[parts[0]] = tuple(float(v) for v in parts[2:5])
    summary = json.loads(done.stdout.split("SUMMARY ")[1])
    return per_trial, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--dataset", required=True, type=pathlib.Path)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("/tmp/fusion-vs-vqf"))
    parser.add_argument("--repeat", type=int, default=3,
                        help="time each trial this many times, ours and VQF alternately, and keep the least of each"
                             " (a shared machine's other work only ever adds time)")
    args = parser.parse_args()
    trials = sorted(p for p in args.dataset.glob("*.csv.gz") if not p.name.endswith((".truth.csv.gz", ".phone.csv.gz")))
    ours_ns, ours_full_ns, vqf_ns = {}, {}, {}
    for recording in trials:
        name = recording.name[: -len(".csv.gz")]
        for mode, frame, nine in (("9d", "x-magnetic-north-z-vertical", True), ("6d", "x-arbitrary-z-vertical", False)):
            subprocess.run([args.motionctl, "replay", str(recording), "--out", str(args.out / f"ours-{mode}" / name), "--frame", frame],
                           check=True, capture_output=True)
            times = {"vqf": [], "ours": [], "full": []}
            for _ in range(max(args.repeat, 1)):
                t, q, ns = run_vqf(recording, nine)
                times["vqf"].append(ns)
                bench = subprocess.run([args.motionctl, "bench-fusion", str(recording), "--frame", frame], check=True, capture_output=True, text=True)
                times["ours"].append(float(bench.stdout.split("ns per fused sample:")[1].split()[0]))
                times["full"].append(float(bench.stdout.split("with the whole DeviceMotion per sample")[1].split(":")[1].split()[0]))
            write_device_motion(args.out / f"vqf-{mode}" / name / "device_motion.csv", t, q)
            vqf_ns.setdefault(mode, []).append(min(times["vqf"]))
            ours_ns.setdefault(mode, []).append(min(times["ours"]))
            ours_full_ns.setdefault(mode, []).append(min(times["full"]))
    results = {key: score(args.dataset, args.out / key, key.split("-")[1]) for key in ("ours-9d", "vqf-9d", "ours-6d", "vqf-6d")}
    print(f"{'trial':44} {'ours 9D tot/head/incl':>24} {'VQF 9D tot/head/incl':>24} {'6D incl ours':>13} {'6D incl VQF':>12}")
    for recording in trials:
        name = recording.name[: -len(".csv.gz")]
        o9, v9 = results["ours-9d"][0].get(name), results["vqf-9d"][0].get(name)
        o6, v6 = results["ours-6d"][0].get(name), results["vqf-6d"][0].get(name)
        fmt = lambda r: "%7.3f %7.3f %7.3f" % r if r else "      –"
        print(f"{name[:44]:44} {fmt(o9):>24} {fmt(v9):>24} {o6[2] if o6 else float('nan'):13.3f} {v6[2] if v6 else float('nan'):12.3f}")
    s = {k: v[1] for k, v in results.items()}
    print(f"{'MEAN':44} {s['ours-9d']['total_rmse_deg_mean']:7.3f} {s['ours-9d']['heading_rmse_deg_mean']:7.3f} {s['ours-9d']['inclination_rmse_deg_mean']:7.3f}"
          f" {s['vqf-9d']['total_rmse_deg_mean']:7.3f} {s['vqf-9d']['heading_rmse_deg_mean']:7.3f} {s['vqf-9d']['inclination_rmse_deg_mean']:7.3f}"
          f" {s['ours-6d']['inclination_rmse_deg_mean']:13.3f} {s['vqf-6d']['inclination_rmse_deg_mean']:12.3f}")
    for mode in ("9d", "6d"):
        print(f"ns per sample {mode.upper()}: ours {np.median(ours_ns[mode]):.0f} (fixed point, Swift), VQF {np.median(vqf_ns[mode]):.0f} (C++ batch),"
              f" ratio {np.median(ours_ns[mode]) / np.median(vqf_ns[mode]):.2f}; ours with the whole DeviceMotion per sample {np.median(ours_full_ns[mode]):.0f}")


if __name__ == "__main__":
    main()
