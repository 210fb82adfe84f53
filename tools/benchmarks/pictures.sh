#!/usr/bin/env bash
# The pictures in docs/accuracy.md: one trial of each data set replayed and drawn by
# `motionctl plot` (matplotlib, through bindings/python), the picture that set is about.
#
#   tools/benchmarks/pictures.sh [DATASETS] [OUT]     (defaults: ../shared/datasets, docs/pictures)
#
# Needs a release build (`swift build -c release`), python3-matplotlib, and the C library the
# Python package loads: installed, or OPENCOREMOTION_LIBRARY (default: the release build's).
set -euo pipefail
cd "$(dirname "$0")/../.."
datasets="${1:-../shared/datasets}"
out="${2:-docs/pictures}"
motionctl=.build/release/motionctl
python="${PYTHON:-/usr/bin/python3}"  # Debian's, where python3-matplotlib is
export OPENCOREMOTION_LIBRARY="${OPENCOREMOTION_LIBRARY:-$PWD/.build/release/libopencoremotion.so}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# data set, trial, picture, replay options
while read -r set trial picture options; do
    recording="$datasets/$set/$trial.csv.gz"
    # shellcheck disable=SC2086  # the options are words
    "$motionctl" replay "$recording" --out "$work/$trial" $options > /dev/null
    "$motionctl" plot "$work/$trial" --recording "$recording" --out "$work/$trial/plots" --python "$python" > /dev/null
    cp "$work/$trial/plots/$picture.png" "$out/$set-$picture.png"
    echo "$out/$set-$picture.png: $trial"
done <<'TRIALS'
oxford_step_counter oxford_nexus_jamie_hard_inhand_1 steps
ipol_gait_steps ipol_s01_t1 steps
weallwalk weallwalk_id01_gd_t1_1l steps
brajdic_handheld brajdic_p01_w1 steps
mobgap_lab mobgap_ha001_test11_trial1 steps
uci_hapt_raw exp01_user01 activity
driver_behavior_car trip17 activity
byke_cycling_handlebar ride3 activity
broad 36_disturbed_attached_magnet_5cm attitude --frame x-magnetic-north-z-vertical
phone_attitude Thibaud_iPhone5_NoDist_AR attitude --frame x-magnetic-north-z-vertical
floors_bmp180_stairs bmp180_up_kapitol altitude
TRIALS
