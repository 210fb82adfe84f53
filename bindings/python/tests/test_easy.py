"""The Sense HAT-style layer: plain numbers from the simulated boards, errors for a person."""

from __future__ import annotations

import math
import time

import pytest

import opencoremotion as ocm
from opencoremotion import easy


def test_orientation_compass_and_raw_readings() -> None:
    with easy.EasyMotion("boards/sim-mpu-9250.board") as motion:
        orientation = motion.get_orientation()
        assert set(orientation) == {"roll", "pitch", "yaw"}
        assert -90 <= orientation["pitch"] <= 90 and -180 <= orientation["roll"] <= 180
        radians = motion.get_orientation_radians()
        assert radians["pitch"] == pytest.approx(math.radians(orientation["pitch"]), abs=0.2)
        heading = motion.get_compass()
        assert 0 <= heading < 360
        acceleration = motion.get_accelerometer_raw()
        assert 0.8 < math.hypot(*acceleration.values()) < 1.2, "about 1 g on a board held by hand"
        assert set(motion.get_gyroscope_raw()) == {"x", "y", "z"}
        assert set(motion.get_compass_raw()) == {"x", "y", "z"}


def test_steps_so_far_on_the_walker() -> None:
    with easy.EasyMotion("boards/sim-walker.board") as motion:
        assert motion.get_steps() == 0, "nothing counted before the first call"
        with ocm.Pedometer("boards/sim-walker.board") as pedometer, pedometer.updates(timeout=15) as updates:
            next(data for data in updates if data.number_of_steps > 0)
        # Its own live updates come on their own schedule (every 2.5 s while walking).
        steps = motion.get_steps()
        for _ in range(50):
            if steps > 0:
                break
            time.sleep(0.1)
            steps = motion.get_steps()
        assert steps > 0


def test_no_compass_without_a_magnetometer() -> None:
    with easy.EasyMotion("boards/sim-gy-521.board") as motion:
        assert set(motion.get_orientation()) == {"roll", "pitch", "yaw"}
        with pytest.raises(ocm.NotAvailableError) as raised:
            motion.get_compass()
        assert "magnetometer" in str(raised.value)


def test_module_functions_use_the_chosen_board() -> None:
    easy.use_board("boards/sim-mpu-9250.board")
    try:
        assert 0 <= easy.get_compass() < 360
        assert set(easy.get_orientation()) == {"roll", "pitch", "yaw"}
    finally:
        easy.close()
