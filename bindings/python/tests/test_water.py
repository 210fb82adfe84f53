"""Water submersion on the simulated dive (boards/sim-ms5837.board: 6 s in air, 2 s of
splashing, then down at 1 m/s): measurements, the submerged event, temperatures."""

from __future__ import annotations

import pytest

import opencoremotion as ocm


def test_the_simulated_dive_goes_under() -> None:
    with ocm.WaterSubmersionManager("boards/sim-ms5837.board", ocm.FRESH_WATER_DENSITY) as manager:
        assert manager.water_submersion_available
        assert manager.maximum_depth_m is not None and manager.maximum_depth_m > 10
        seen: list[ocm.WaterSubmersionUpdate] = []
        with manager.updates(timeout=20) as updates:
            for update in updates:
                seen.append(update)
                if update.kind == ocm.WaterSubmersionUpdateKind.TEMPERATURE:
                    break
        latest = manager.latest_measurement
    events = [update for update in seen if update.kind == ocm.WaterSubmersionUpdateKind.EVENT]
    assert [event.submerged for event in events][:1] == [True]
    measurements = [update for update in seen if update.kind == ocm.WaterSubmersionUpdateKind.MEASUREMENT]
    states = [measurement.state for measurement in measurements]
    assert ocm.DepthState.NOT_SUBMERGED in states and ocm.DepthState.SUBMERGED_SHALLOW in states
    submerged = [m for m in measurements if m.state == ocm.DepthState.SUBMERGED_SHALLOW]
    assert all(m.depth_m is not None and 0.1 < m.depth_m < 1.5 for m in submerged)
    assert all(m.temperature_c is None and m.submerged is None for m in measurements)
    temperature = seen[-1]
    assert temperature.temperature_c is not None and 0 < temperature.temperature_c < 40
    assert temperature.depth_m is None and temperature.state is None
    assert latest is not None and latest.kind == ocm.WaterSubmersionUpdateKind.MEASUREMENT


def test_a_density_out_of_range_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        ocm.WaterSubmersionManager("boards/sim-ms5837.board", 5.0)


def test_a_board_without_a_depth_sensor() -> None:
    with ocm.WaterSubmersionManager("boards/sim-gy-521.board") as manager:
        assert not manager.water_submersion_available
        with pytest.raises(ocm.NotAvailableError):
            manager.start_updates()
