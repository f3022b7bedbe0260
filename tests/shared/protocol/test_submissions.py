"""The submission frames: a bot's archive in parts, the report, the key's versions, and their documented causes."""

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from shared.protocol import (
    MAX_SUBMISSION_BYTES, MAX_SUBMIT_PARTS, SUBMIT_PART_CHARS, VALIDATION_CAUSES, Hello, ProtocolError, Submit,
    dump, parse_client,
)

DOC = (Path(__file__).resolve().parents[3] / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_a_submitter_says_hello_with_its_key():
    assert parse_client('{"type": "hello", "protocol": 1, "role": "submitter", "key": "k1"}') == \
        Hello(protocol=1, role="submitter", key="k1")


def test_a_one_part_submission_needs_only_the_zip():
    message = parse_client('{"type": "submit", "zip": "UEsFBg=="}')
    assert message == Submit(zip="UEsFBg==") and (message.entry, message.part, message.parts) == (None, 0, 1)


def test_the_parts_can_carry_the_largest_archive_and_each_fits_a_rooms_frame():
    assert MAX_SUBMIT_PARTS * SUBMIT_PART_CHARS >= (MAX_SUBMISSION_BYTES + 2) // 3 * 4
    frame = dump(Submit(entry="pkg/mod.py:MyPlayer", part=MAX_SUBMIT_PARTS - 1, parts=MAX_SUBMIT_PARTS,
                        zip="A" * SUBMIT_PART_CHARS))
    assert len(frame.encode()) < 128 * 1024


@pytest.mark.parametrize("fields", [{"zip": ""}, {"zip": "A" * (SUBMIT_PART_CHARS + 1)}, {"zip": "A", "part": -1},
                                    {"zip": "A", "parts": 0}, {"zip": "A", "parts": MAX_SUBMIT_PARTS + 1},
                                    {"zip": "A", "entry": ""}])
def test_out_of_range_fields_are_refused(fields):
    with pytest.raises(ValidationError):
        Submit(**fields)


def test_a_bad_submit_frame_is_an_invalid_fields_error():
    with pytest.raises(ProtocolError) as info:
        parse_client('{"type": "submit", "zip": 5}')
    assert (info.value.code, info.value.frame_type) == ("invalid_fields", "submit")


def test_every_validation_cause_is_in_the_documented_table_and_nothing_else():
    table = DOC.split("## Validation causes", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"^\| `([^`]+)` \|", table, flags=re.M)) == set(VALIDATION_CAUSES)
