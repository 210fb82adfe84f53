#!/usr/bin/env python3
"""Would a small *learned* activity classifier generalise better than the rule classifier?
(Measurement only: nothing here changes the shipped classifier.)

    python3 -m venv /tmp/venv-learned && /tmp/venv-learned/bin/pip install numpy scikit-learn
    OMP_NUM_THREADS=1 nice -n 10 /tmp/venv-learned/bin/python tools/benchmarks/learned_activity.py \
        --motionctl .build/release/motionctl --datasets ../shared/datasets \
        [--out /tmp/learned-activity] [--models tree gbt logreg] [--schemes loso loset] [--smooth 5] \
        [--json FILE] [--details]

(OMP_NUM_THREADS=1: the boosted trees' OpenMP threads crawl on two shared cores. tree and logreg
take a few minutes for both schemes; gbt's ~100 leave-one-subject-out folds much longer.)

Pipeline (one for the rules and the learned models, so the figures compare like for like):

1. Every trial of the ten activity sets is run through `motionctl bench-activity --trace`: every
   0.5 s of the recording's clock (the classifier's own block) it prints the rule classifier's
   2 s window (5–20 Hz vibration, 0.3–5 Hz bounce of |a| "ride", per-axis spread, gravity
   steadiness, RMS rotation), its gait-rhythm and pedalling-rhythm correlations, the rhythm's
   cadence, the step detector's `stepping`, and the live flags (the rules' answer). Cached in
   OUT/trace/SET/TRIAL.txt.
2. Extra physically motivated features of the same window, computed here from the recording
   (acc, gyr): |mean a| / g over 2 s; the standard deviation of a along gravity (vertical bounce)
   and across it (horizontal sway) over 2 s; over 4 s of |a| and of the vertical acceleration
   resampled at 25 Hz: the best autocorrelation at a step's lag (0.24–1.32 s) and that lag, the
   share of |a|'s power in the gait band 0.6–3.5 Hz; the gyroscope's standard deviation over 2 s.
   Causal context: means over the last 10 s and 30 s of the bounce, vibration, rotation and
   steadiness, the gait rhythm's mean and maximum, the share of the last 30 s with steps.
3. Truth per window (at its midpoint t + 0.25 s: the answer printed at t holds until t + 0.5 s)
   as tools/benchmarks/activity.py derives it: json `activity` segments; for the step-only sets
   (oxford, ipol, weallwalk, mobgap) every run of >= 4 true steps with gaps <= 2.5 s is walking;
   Brajdic's scored window is one walk. Classes as ../shared/eval/score_activity.py maps them:
   walking (stairs too), running, not-moving (sitting, standing, lying, stationary: correct iff
   `stationary`), handled (correct iff not walking, running, automotive or cycling), automotive,
   cycling; unlabelled time is not scored (but a vehicle call anywhere in a pedestrian trial is
   counted, as the scorer does). Windows before the first full 2 s window are not scored for
   either classifier.
4. Models (scikit-learn, fixed seeds): `tree` a decision tree of depth <= 6 (<= 64 leaves),
   `gbt` gradient-boosted trees (HistGradientBoosting, 50 rounds of depth <= 3, <= 8 leaves,
   one tree per class and round), `logreg` multinomial logistic regression on standardised,
   log-compressed features. Training weights: every (data set, truth class) pair weighs the
   same in total, so UCI's hours of sitting do not outvote a 2-minute walk set. Training uses
   every second window (windows overlap by 75 %).
5. Folds: leave-one-subject-out (a subject is json `subject`, `trip` or `ride`; BROAD, with
   neither, folds by trial, as tools/benchmarks/loso.py does): the held-out subject's trials are
   predicted by a model trained on every other subject of every set. Leave-one-data-set-out:
   the held-out set's trials are predicted by a model trained on the other nine sets only (new
   people, phones, carries, sensors and rates at once).
6. Live smoothing of the learned answers (what a live classifier would show; the rules' flags
   already carry their own hysteresis and are scored as printed): a causal majority over the
   last N windows (N = --smooth, default 5: 2.5 s; ties go to the newest) among stationary /
   walking / running / handled; a vehicle (automotive or cycling, whichever is the majority of
   the vehicle windows) is entered only when >= 80 % of the last 60 windows (30 s) are vehicle
   windows (the rules need 27 of 30 s for a car), kept while >= 50 % of the last 60 are and the
   last N windows' majority is not on foot. `hybrid`: a second learned model trained on
   stationary / on foot (walking and running together) / handled only (no vehicle windows),
   smoothed the same way, whose answer is replaced by the rules' wherever the rules call
   running, automotive or cycling (one car trip, two rides and one runner are too few to learn
   those from, and none is left when its set or subject is held out).

Figures per data set and method: balanced accuracy (pooled, time-weighted: mean of per-class
recalls), mean over subjects of each subject's mean per-trial balanced accuracy and the worst
subject, the worst trial, false vehicle calls (vehicle episodes starting in a pedestrian trial or
in non-vehicle truth), and for the car and bike sets the vehicle recall (that set's balanced
accuracy).
"""
import argparse
import gzip
import json
import pathlib
import statistics
import subprocess
import sys

import numpy as np

# The labels as the rule classifier's benchmark derives them, and the subjects as the
# leave-one-subject-out pedometer folds them: the same code, so the figures compare.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from activity import DERIVED, SIDECARS, WINDOW_WALK, walking_segments  # noqa: E402
from loso import subject_of  # noqa: E402

SETS = ["uci_hapt_raw", "oxford_step_counter", "ipol_gait_steps", "broad", "phone_attitude", "weallwalk",
        "brajdic_handheld", "mobgap_lab", "driver_behavior_car", "byke_cycling_handlebar"]
TRUTH = {"walking": "walking", "stairs_up": "walking", "stairs_down": "walking", "running": "running",
         "sitting": "not-moving", "standing": "not-moving", "lying": "not-moving", "stationary": "not-moving",
         "handled": "handled", "automotive": "automotive", "cycling": "cycling"}
# Model classes (index = code). `handled` as a prediction is "no call" (no flag).
CLASSES = ["stationary", "walking", "running", "automotive", "cycling", "handled"]
TRUTH_TO_CLASS = {"not-moving": 0, "walking": 1, "running": 2, "automotive": 3, "cycling": 4, "handled": 5}
VEHICLE = {3, 4}
ON_FOOT = {1, 2}
G = 9.80665
FLAG_PRIORITY = [(1 << 3, "automotive"), (1 << 4, "cycling"), (1 << 2, "running"), (1 << 1, "walking"),
                 (1 << 0, "stationary"), (1 << 5, "unknown")]
TRACE_COLUMNS = ["vib", "ride", "spread", "steady", "rot", "gaitR", "pedalR", "cadence"]
SEED = 20261128


# ---------------------------------------------------------------- labels

def truth_segments(dataset, label):
    if dataset in WINDOW_WALK:
        return [(label["score"]["start"], label["score"]["end"], "walking")]
    if dataset in DERIVED:
        return [(w["start"], w["end"], w["label"]) for w in walking_segments(label.get("step_times", []))]
    return [(s["start"], s["end"], s["label"]) for s in label.get("activity", [])]


# ---------------------------------------------------------------- trace and features

def run_trace(motionctl, recording, path):
    if not path.exists():
        out = subprocess.run([motionctl, "bench-activity", "--trace", str(recording)], capture_output=True, text=True, check=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out.stdout)
    rows = []
    for line in path.read_text().splitlines()[1:]:
        p = line.split()
        if len(p) < 21:
            continue
        values = [float(x) if x != "-" else np.nan for x in p[1:9]]
        rows.append([float(p[0])] + values + [1.0 if p[9] == "1" else 0.0, float(int(p[20]))])
    return np.array(rows, dtype=float).reshape(-1, 11)


def read_recording(path):
    acc, gyr = [], []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line[0] == "#" or line.startswith("t,"):
                continue
            p = line.split(",")
            if p[1] == "acc":
                acc.append((float(p[0]), float(p[2]), float(p[3]), float(p[4])))
            elif p[1] == "gyr":
                gyr.append((float(p[0]), float(p[2]), float(p[3]), float(p[4])))
    return np.array(acc, dtype=float).reshape(-1, 4), np.array(gyr, dtype=float).reshape(-1, 4)


def window_stats(t, x, times, span):
    """Mean and mean square of the columns of x over (time - span, time] for every time (cumulative sums)."""
    c1 = np.vstack([np.zeros((1, x.shape[1])), np.cumsum(x, axis=0)])
    c2 = np.vstack([np.zeros((1, x.shape[1])), np.cumsum(x * x, axis=0)])
    hi = np.searchsorted(t, times, side="right")
    lo = np.searchsorted(t, times - span, side="right")
    n = np.maximum(hi - lo, 1)[:, None]
    return (c1[hi] - c1[lo]) / n, (c2[hi] - c2[lo]) / n


def best_autocorrelation(w):
    """w: (windows, 100) at 25 Hz, mean removed. Best normalised r at lags 6..33 samples and the lag (s)."""
    lags = np.arange(6, 34)
    best = np.full(len(w), -1.0)
    lag_best = np.zeros(len(w))
    for lag in lags:
        a, b = w[:, lag:], w[:, :-lag]
        r = (a * b).sum(1) / np.sqrt((a * a).sum(1) * (b * b).sum(1) + 1e-12)
        better = r > best
        best[better] = r[better]
        lag_best[better] = lag * 0.04
    return best, lag_best


def raw_features(acc, gyr, times):
    t = acc[:, 0]
    a = acc[:, 1:]
    mean, _ = window_stats(t, a, times, 2.0)
    mean_g = np.linalg.norm(mean, axis=1) / G
    u = mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-9)
    # Along/across gravity over 2 s: var_total = sum of per-axis variances; vertical variance from
    # the projection on the window's mean direction (computed on the 25 Hz grid below).
    grid = np.arange(t[0], t[-1], 0.04)
    ag = np.stack([np.interp(grid, t, a[:, k]) for k in range(3)], axis=1)
    idx = np.searchsorted(grid, times, side="right")  # samples <= time
    n4, n2 = 100, 50
    valid = idx >= n4
    out = {k: np.full(len(times), np.nan) for k in
           ["mean_g", "vert_std", "horiz_std", "ac_mag", "ac_mag_lag", "ac_vert", "gait_band", "gyr_std"]}
    out["mean_g"] = mean_g
    if valid.any():
        starts = idx[valid] - n4
        W = ag[starts[:, None] + np.arange(n4)[None, :]]  # (nv, 100, 3)
        mag = np.linalg.norm(W, axis=2)
        mag = mag - mag.mean(1, keepdims=True)
        uw = W.mean(1)
        uw = uw / np.maximum(np.linalg.norm(uw, axis=1, keepdims=True), 1e-9)
        vert = (W * uw[:, None, :]).sum(2)
        vert = vert - vert.mean(1, keepdims=True)
        out["ac_mag"][valid], out["ac_mag_lag"][valid] = best_autocorrelation(mag)
        out["ac_vert"][valid], _ = best_autocorrelation(vert)
        spec = np.abs(np.fft.rfft(mag * np.hanning(n4)[None, :], axis=1)) ** 2
        f = np.fft.rfftfreq(n4, 0.04)
        band = (f >= 0.6) & (f <= 3.5)
        out["gait_band"][valid] = spec[:, band].sum(1) / np.maximum(spec[:, 1:].sum(1), 1e-12)
        W2 = W[:, -n2:, :]
        v2 = (W2 * u[valid][:, None, :]).sum(2)
        out["vert_std"][valid] = v2.std(1)
        total = W2.var(1).sum(1)
        out["horiz_std"][valid] = np.sqrt(np.maximum(total - v2.var(1), 0))
    if len(gyr):
        gm, gs = window_stats(gyr[:, 0], gyr[:, 1:], times, 2.0)
        out["gyr_std"] = np.sqrt(np.maximum(gs - gm * gm, 0).sum(1))
    return out


def rolling(x, n, how):
    """Causal mean / max over the last n windows (fewer at the start); NaN ignored."""
    out = np.empty(len(x))
    for i in range(len(x)):
        seg = x[max(0, i - n + 1): i + 1]
        seg = seg[~np.isnan(seg)]
        out[i] = (seg.mean() if how == "mean" else seg.max()) if len(seg) else np.nan
    return out


FEATURES = (TRACE_COLUMNS + ["stepping", "mean_g", "vert_std", "horiz_std", "ac_mag", "ac_mag_lag", "ac_vert",
                             "gait_band", "gyr_std"]
            + [f"{c}_{n}s" for n in (10, 30) for c in ("ride", "vib", "rot", "steady", "gaitR")]
            + ["gaitR_max10s", "gaitR_max30s", "stepping_30s"])


def trial_table(args, dataset, recording):
    """(times, features (n, F), rule class codes, truth codes (-1 unscored)) of one trial, cached."""
    name = recording.name[: -len(".csv.gz")]
    cache = args.out / "features" / dataset / (name + ".npz")
    label = json.loads((recording.parent / (name + ".json")).read_text())
    if cache.exists():
        z = np.load(cache)
        return z["times"], z["features"], z["rules"], z["truth"], label
    trace = run_trace(args.motionctl, recording, args.out / "trace" / dataset / (name + ".txt"))
    times = trace[:, 0]
    acc, gyr = read_recording(recording)
    raw = raw_features(acc, gyr, times)
    cols = {c: trace[:, 1 + i] for i, c in enumerate(TRACE_COLUMNS)}
    cols["stepping"] = trace[:, 9]
    cols.update(raw)
    for n, secs in ((20, 10), (60, 30)):
        for c in ("ride", "vib", "rot", "steady", "gaitR"):
            cols[f"{c}_{secs}s"] = rolling(cols[c], n, "mean")
    cols["gaitR_max10s"] = rolling(cols["gaitR"], 20, "max")
    cols["gaitR_max30s"] = rolling(cols["gaitR"], 60, "max")
    cols["stepping_30s"] = rolling(cols["stepping"], 60, "mean")
    features = np.stack([cols[c] for c in FEATURES], axis=1)
    rules = np.array([rule_class(int(f)) for f in trace[:, 10]])
    truth = np.full(len(times), -1)
    mid = times + 0.25
    for start, end, lab in truth_segments(dataset, label):
        cls = TRUTH.get(lab)
        if cls is None:
            continue
        truth[(mid >= start) & (mid < end)] = TRUTH_TO_CLASS[cls]
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, times=times, features=features, rules=rules, truth=truth)
    return times, features, rules, truth, label


def rule_class(flags):
    """The scorer's priority; `handled` (5) stands for no call, -2 for unknown."""
    for bit, name in FLAG_PRIORITY:
        if flags & bit:
            return {"automotive": 3, "cycling": 4, "running": 2, "walking": 1, "stationary": 0, "unknown": -2}[name]
    return 5


# ---------------------------------------------------------------- models

def prepare(X, kind):
    X = X.copy()
    has_gyro = ~np.isnan(X[:, FEATURES.index("rot")])
    if kind == "logreg":
        X = np.where(np.isnan(X), 0.0, X)
        for c in ("vib", "ride", "spread", "rot", "vert_std", "horiz_std", "gyr_std", "ride_10s", "vib_10s", "rot_10s",
                  "ride_30s", "vib_30s", "rot_30s"):
            i = FEATURES.index(c)
            X[:, i] = np.log10(np.maximum(X[:, i], 0) + 1e-3)
        return np.hstack([X, has_gyro[:, None].astype(float)])
    return np.where(np.isnan(X), -1.0, X)  # trees: -1 = "no gyroscope / not yet"


GYRO_FEATURES = {"rot", "rot_10s", "rot_30s", "gyr_std"}
FEATURES_FULL = {k: FEATURES + (["has_gyro"] if k == "logreg" else []) for k in ("tree", "gbt", "logreg")}
ACC_COLUMNS = {k: [i for i, n in enumerate(FEATURES_FULL[k]) if n not in GYRO_FEATURES | {"has_gyro"}]
               for k in ("tree", "gbt", "logreg")}


def make_model(kind):
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier
    if kind == "tree":
        return DecisionTreeClassifier(max_depth=6, min_samples_leaf=40, random_state=SEED)
    if kind == "gbt":
        return HistGradientBoostingClassifier(max_iter=50, max_depth=3, max_leaf_nodes=8, learning_rate=0.2,
                                              early_stopping=False, random_state=SEED)
    if kind == "logreg":
        return make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000, random_state=SEED))
    raise ValueError(kind)


def weights(sets, y):
    w = np.zeros(len(y))
    for key in set(zip(sets, y)):
        m = (sets == key[0]) & (y == key[1])
        w[m] = 1.0 / m.sum()
    return w * len(y) / w.sum()


def fit(kind, X, y, w):
    model = make_model(kind)
    if kind == "logreg":
        model.fit(X, y, logisticregression__sample_weight=w)
    else:
        model.fit(X, y, sample_weight=w)
    return model


def fit_predict(kind, data, train_mask, test_mask, pedestrian=False):
    """Two models, as a board would carry them: one on every feature for windows with a
    gyroscope, one on the accelerometer's features alone for windows without (a missing
    gyroscope must not become a feature: the only acc-only vehicle set is the bicycle).
    `pedestrian`: classes stationary / on foot (walking and running) / handled only, no vehicle
    windows in training (the hybrid's model)."""
    y, sets = data["truth"].copy(), data["set"]
    tr = train_mask & (y >= 0) & data["even"]
    if pedestrian:
        y[y == 2] = 1
        tr &= ~np.isin(y, list(VEHICLE))
    pred = np.empty(int(test_mask.sum()), dtype=int)
    gyro = data["gyro"][test_mask]
    for name, rows in (("full", gyro), ("acc", ~gyro)):
        if rows.any():
            X = data["X"][kind] if name == "full" else data["Xacc"][kind]
            trm = tr & data["gyro"] if name == "full" else tr
            model = fit(kind, X[trm], y[trm], weights(sets[trm], y[trm]))
            pred[rows] = model.predict(X[test_mask][rows])
    return pred


# ---------------------------------------------------------------- smoothing and scoring

def smooth(raw, n):
    out = np.empty(len(raw), dtype=int)
    vehicle = None
    for i in range(len(raw)):
        recent = raw[max(0, i - n + 1): i + 1]
        counts = {}
        for j, c in enumerate(recent):
            if c in VEHICLE:
                continue
            counts[c] = counts.get(c, (0, 0))
            counts[c] = (counts[c][0] + 1, j)
        foot = max(counts.items(), key=lambda kv: kv[1])[0] if counts else raw[i]
        last60 = raw[max(0, i - 59): i + 1]
        share = np.isin(last60, list(VEHICLE)).sum() / 60.0
        if vehicle is None and share >= 0.8:
            vehicle = 3 if (last60 == 3).sum() >= (last60 == 4).sum() else 4
        elif vehicle is not None and (share < 0.5 or foot in ON_FOOT):
            vehicle = None
        out[i] = vehicle if vehicle is not None else foot
    return out


def correct(truth, pred):
    if truth == 5:
        return pred not in (1, 2, 3, 4)
    return pred == truth


def trial_balanced(truth, pred):
    recalls = [np.mean([correct(c, p) for p in pred[truth == c]]) for c in sorted(set(truth[truth >= 0]))]
    return float(np.mean(recalls)) if recalls else float("nan")


def vehicle_episodes(truth, pred, pedestrian):
    calls = 0
    for i in range(len(pred)):
        if pred[i] in VEHICLE and (i == 0 or pred[i - 1] != pred[i]):
            if pedestrian or truth[i] not in VEHICLE and truth[i] >= 0:
                calls += 1
    return calls


def score(trials, preds):
    """trials: list of dicts (set, trial, subject, truth); preds: same order. Per set figures."""
    table = {}
    for dataset in SETS:
        idx = [i for i, t in enumerate(trials) if t["set"] == dataset]
        if not idx:
            continue
        truth = np.concatenate([trials[i]["truth"] for i in idx])
        pred = np.concatenate([preds[i] for i in idx])
        classes = sorted(set(truth[truth >= 0]))
        recalls = {CLASSES[c]: float(np.mean([correct(c, p) for p in pred[truth == c]])) for c in classes}
        per_trial = {trials[i]["trial"]: trial_balanced(trials[i]["truth"], preds[i]) for i in idx}
        per_trial = {k: v for k, v in per_trial.items() if v == v}
        by_subject = {}
        for i in idx:
            if trials[i]["trial"] in per_trial:
                by_subject.setdefault(trials[i]["subject"], []).append(per_trial[trials[i]["trial"]])
        subj = {s: statistics.fmean(v) for s, v in by_subject.items()}
        worst_s = min(subj.items(), key=lambda kv: kv[1])
        worst_t = min(per_trial.items(), key=lambda kv: kv[1])
        fv = sum(vehicle_episodes(trials[i]["truth"], preds[i], not np.isin(trials[i]["truth"], list(VEHICLE)).any())
                 for i in idx)
        fv_trials = [trials[i]["trial"] for i in idx
                     if vehicle_episodes(trials[i]["truth"], preds[i], not np.isin(trials[i]["truth"], list(VEHICLE)).any())]
        fv_per_trial = {trials[i]["trial"]: vehicle_episodes(trials[i]["truth"], preds[i],
                                                             not np.isin(trials[i]["truth"], list(VEHICLE)).any()) for i in idx}
        table[dataset] = {"fv_per_trial": fv_per_trial, "balanced": float(np.mean(list(recalls.values()))), "recalls": recalls,
                          "subject_mean": statistics.fmean(subj.values()), "worst_subject": worst_s,
                          "worst_trial": worst_t, "false_vehicle": fv, "false_vehicle_trials": fv_trials,
                          "per_trial": per_trial}
    return table


# ---------------------------------------------------------------- main

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--motionctl", required=True)
    parser.add_argument("--datasets", required=True, type=pathlib.Path)
    parser.add_argument("--out", default="/tmp/learned-activity", type=pathlib.Path)
    parser.add_argument("--models", nargs="*", default=["tree", "gbt", "logreg"])
    parser.add_argument("--smooth", type=int, default=5, help="causal majority over this many 0.5 s windows")
    parser.add_argument("--json", type=pathlib.Path)
    parser.add_argument("--schemes", nargs="*", default=["loso", "loset"], help="loso (leave one subject out), loset (leave one data set out)")
    parser.add_argument("--details", action="store_true", help="also every method's table with per-class recalls")
    args = parser.parse_args()
    np.random.seed(SEED)

    trials = []
    for dataset in SETS:
        for recording in sorted((args.datasets / dataset).glob("*.csv.gz")):
            if recording.name.endswith(SIDECARS):
                continue
            times, X, rules, truth, label = trial_table(args, dataset, recording)
            name = recording.name[: -len(".csv.gz")]
            trials.append({"set": dataset, "trial": name, "subject": subject_of(label, name), "times": times,
                           "X": X, "rules": rules, "truth": truth})
        print(f"features: {dataset}", file=sys.stderr, flush=True)

    lengths = [len(t["times"]) for t in trials]
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    X = np.concatenate([t["X"] for t in trials])
    data = {"truth": np.concatenate([t["truth"] for t in trials]),
            "set": np.concatenate([[t["set"]] * len(t["times"]) for t in trials]),
            "subject": np.concatenate([[t["set"] + "/" + t["subject"]] * len(t["times"]) for t in trials]),
            "even": np.concatenate([np.arange(len(t["times"])) % 2 == 0 for t in trials]),
            "gyro": ~np.isnan(X[:, FEATURES.index("rot")]),
            "X": {k: prepare(X, k) for k in args.models},
            "Xacc": {k: prepare(X, k)[:, ACC_COLUMNS[k]] for k in args.models}}
    print(f"{len(trials)} trials, {len(X)} windows, {int((data['truth'] >= 0).sum())} labelled", file=sys.stderr)

    results = {"rules": score(trials, [t["rules"] for t in trials])}
    models_out = {}
    for kind in args.models:
        for scheme in args.schemes:
            key = data["subject"] if scheme == "loso" else data["set"]
            raw, ped = [None] * len(trials), [None] * len(trials)
            for g in sorted(set(key)):
                test = key == g
                where = np.flatnonzero(test)
                full = fit_predict(kind, data, ~test, test)
                walk = fit_predict(kind, data, ~test, test, pedestrian=True)
                for i in range(len(trials)):
                    lo, hi = offsets[i], offsets[i + 1]
                    if test[lo:hi].all():
                        at = np.searchsorted(where, lo)
                        raw[i], ped[i] = full[at: at + hi - lo], walk[at: at + hi - lo]
            smoothed = [smooth(r, args.smooth) for r in raw]
            # Hybrid: the rules' running and vehicle calls; otherwise the pedestrian model (smoothed).
            hybrid = []
            for p, t in zip(ped, trials):
                h = smooth(p, args.smooth)
                keep = np.isin(t["rules"], [2, 3, 4])
                hybrid.append(np.where(keep, t["rules"], h))
            results[f"{kind}/{scheme}/raw"] = score(trials, raw)
            results[f"{kind}/{scheme}"] = score(trials, smoothed)
            results[f"{kind}/{scheme}/hybrid"] = score(trials, hybrid)
            print(f"done {kind} {scheme}", file=sys.stderr, flush=True)
        # The all-data model: its size (what a port would embed).
        allm = (data["truth"] >= 0) & data["even"] & data["gyro"]
        model = fit(kind, data["X"][kind][allm], data["truth"][allm], weights(data["set"][allm], data["truth"][allm]))
        models_out[kind] = "with a gyroscope: " + describe(kind, model, FEATURES_FULL[kind])
        pm = allm & ~np.isin(data["truth"], list(VEHICLE))
        yp = np.where(data["truth"] == 2, 1, data["truth"])
        model = fit(kind, data["X"][kind][pm], yp[pm], weights(data["set"][pm], yp[pm]))
        models_out[kind] += "\n  pedestrian (hybrid), with a gyroscope: " + describe(kind, model, FEATURES_FULL[kind])
        pm = (data["truth"] >= 0) & data["even"] & ~np.isin(data["truth"], list(VEHICLE))
        model = fit(kind, data["Xacc"][kind][pm], yp[pm], weights(data["set"][pm], yp[pm]))
        models_out[kind] += "\n  pedestrian (hybrid), accelerometer only: " + describe(kind, model, [FEATURES_FULL[kind][i] for i in ACC_COLUMNS[kind]])
        allm = (data["truth"] >= 0) & data["even"]
        model = fit(kind, data["Xacc"][kind][allm], data["truth"][allm], weights(data["set"][allm], data["truth"][allm]))
        models_out[kind] += "\n  accelerometer only: " + describe(kind, model, [FEATURES_FULL[kind][i] for i in ACC_COLUMNS[kind]])

    print_summary(results, args.models, trials, args.schemes)
    if args.details:
        print_tables(results, args.models)
    for kind, text in models_out.items():
        print(f"\n{kind}: {text}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))


def describe(kind, model, names):
    if kind == "tree":
        t = model.tree_
        imp = sorted(zip(model.feature_importances_, names), reverse=True)[:8]
        return (f"{t.node_count} nodes, {t.n_leaves} leaves, depth {t.max_depth}; "
                f"top features {', '.join(f'{n} {v:.2f}' for v, n in imp)}")
    if kind == "gbt":
        nodes = sum(p.nodes.shape[0] for it in model._predictors for p in it)
        trees = sum(len(it) for it in model._predictors)
        return f"{trees} trees, {nodes} nodes ({nodes * 8} bytes at 8 bytes a node: feature u8, threshold i32, child/leaf u16+i8)"
    lr = model[-1]
    return f"{lr.coef_.size} weights + {lr.intercept_.size} biases, {len(FEATURES) + 1} inputs"


def cell(entry, vehicle_set):
    if vehicle_set:
        return (f"{entry['balanced']:.3f} ({entry['worst_trial'][0]} {entry['worst_trial'][1]:.3f}); "
                f"FV {entry['false_vehicle']}")
    ws = entry["worst_subject"]
    wt = entry["worst_trial"]
    return (f"{entry['balanced']:.3f} / {entry['subject_mean']:.3f} ({ws[0]} {ws[1]:.3f}) / {wt[0]} {wt[1]:.3f} / "
            f"FV {entry['false_vehicle']}")


def short(e, vehicle_set):
    if vehicle_set:
        return f"{e['balanced']:.3f} (worst {e['worst_trial'][1]:.3f}) FV {e['false_vehicle']}"
    return (f"{e['balanced']:.3f} / {e['subject_mean']:.3f} ({e['worst_subject'][0]} {e['worst_subject'][1]:.3f}) / "
            f"{e['worst_trial'][0]} {e['worst_trial'][1]:.3f} / FV {e['false_vehicle']}")


def print_summary(results, models, trials, schemes):
    vehicle_sets = ("driver_behavior_car", "byke_cycling_handlebar")
    methods = ["rules"] + [f"{k}/{s}{v}" for k in models for s in schemes for v in ("", "/hybrid")]
    print("Cells: balanced accuracy / mean over subjects (worst subject) / worst trial / false vehicle calls;")
    print("car and bike: vehicle recall (worst trial) and false vehicle calls. Learned figures are held out")
    print("(loso: the subject's trials predicted by a model trained on every other subject of every set;")
    print("loset: the set's trials predicted by a model trained on the other sets only).")
    for method in methods:
        print(f"\n### {method}\n")
        print("| data set | figures | recalls |")
        print("|---|---|---|")
        for dataset, e in results[method].items():
            rec = ", ".join(f"{k} {v:.3f}" for k, v in e["recalls"].items())
            print(f"| {dataset} | {short(e, dataset in vehicle_sets)} | {rec} |")
    focus = [t for t in trials if t["trial"].endswith("_AR") or t["trial"] == "brajdic_p27_w1"
             or t["set"] in ("mobgap_lab",) + vehicle_sets]
    print("\n### Focus trials: per-trial balanced accuracy (false vehicle calls)\n")
    print("| trial | " + " | ".join(methods) + " |")
    print("|---|" + "---|" * len(methods))
    for t in focus:
        cells = []
        for m in methods:
            e = results[m][t["set"]]
            b = e["per_trial"].get(t["trial"], float("nan"))
            cells.append(f"{b:.3f} ({e['fv_per_trial'][t['trial']]})")
        print(f"| {t['trial']} | " + " | ".join(cells) + " |")


def print_tables(results, models):
    methods = ["rules"] + [f"{k}/{s}{v}" for k in models for s in ("loso", "loset") for v in ("", "/raw", "/hybrid")]
    methods = [m for m in methods if m in results]
    print("Each cell: balanced accuracy / mean over subjects (worst subject) / worst trial / false vehicle calls")
    print("(car and bike: vehicle recall (worst trial); FV counted in their non-vehicle time)\n")
    for method in methods:
        if method not in results:
            continue
        print(f"\n### {method}\n")
        print("| data set | figures | recalls | false vehicle trials |")
        print("|---|---|---|---|")
        for dataset, e in results[method].items():
            rec = ", ".join(f"{k} {v:.3f}" for k, v in e["recalls"].items())
            print(f"| {dataset} | {cell(e, dataset in ('driver_behavior_car', 'byke_cycling_handlebar'))} | {rec} "
                  f"| {' '.join(sorted(set(e['false_vehicle_trials'])))} |")


if __name__ == "__main__":
    main()
