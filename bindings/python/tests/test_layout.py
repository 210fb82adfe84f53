"""The ctypes mirrors match opencoremotion.h as the C compiler lays it out: every struct's size
and every field's offset and size (a mismatch would read the wrong bytes silently)."""

from __future__ import annotations

import ctypes

from opencoremotion import _structs


class _Field(ctypes.Structure):
    _fields_ = [
        ("structure", ctypes.c_char_p),
        ("field", ctypes.c_char_p),
        ("offset", ctypes.c_size_t),
        ("size", ctypes.c_size_t),
    ]


def _compiled_layout(reference: ctypes.CDLL) -> list[tuple[str, str, int, int]]:
    reference.ref_layout_count.restype = ctypes.c_size_t
    reference.ref_layout_entry.restype = ctypes.POINTER(_Field)
    reference.ref_layout_entry.argtypes = [ctypes.c_size_t]
    entries = []
    for index in range(reference.ref_layout_count()):
        entry = reference.ref_layout_entry(index).contents
        entries.append((entry.structure.decode(), entry.field.decode(), entry.offset, entry.size))
    return entries


def test_every_struct_and_field_matches_the_header(reference: ctypes.CDLL) -> None:
    entries = _compiled_layout(reference)
    structures = {structure for structure, _, _, _ in entries}
    assert structures == set(_structs.STRUCTS), "every mirrored struct is checked, and only those"
    mismatches = []
    for structure, field, offset, size in entries:
        mirror = _structs.STRUCTS[structure]
        if field == "":
            observed = (0, ctypes.sizeof(mirror))
        else:
            descriptor = getattr(mirror, field)
            observed = (descriptor.offset, descriptor.size)
        if observed != (offset, size):
            mismatches.append(f"{structure}.{field or 'sizeof'}: C (offset {offset}, size {size}), ctypes {observed}")
    assert not mismatches, "\n".join(mismatches)


def test_every_mirrored_field_is_in_the_header(reference: ctypes.CDLL) -> None:
    checked = {(structure, field) for structure, field, _, _ in _compiled_layout(reference)}
    for name, mirror in _structs.STRUCTS.items():
        for field, *_ in mirror._fields_:
            if field == "data" and name == "ocm_motion_data":
                continue  # the anonymous union: its members are checked one by one
            assert (name, field) in checked, f"{name}.{field} is not in the header's layout table"


def test_batch_structs_are_made_of_8_byte_words() -> None:
    """batched.py reads batches as 8-byte columns: every field must start on a multiple of 8."""
    for mirror in (_structs.AccelerometerData, _structs.DeviceMotionData):
        assert ctypes.sizeof(mirror) % 8 == 0
        for field, *_ in mirror._fields_:
            assert getattr(mirror, field).offset % 8 == 0, f"{mirror.__name__}.{field}"
