"""Records made on main before the kernel/module split (issue 22) replay to their recorded end.

``Record.replay`` checks every action applies, every row's hash, and the final state's digest
and outcome, so any rule the split changed shows up as a RecordError naming the first action
that no longer replays or the digest that differs. tests/records/make_records.py made them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spacetable.engine import Record

RECORDS = sorted((Path(__file__).parent / "records").glob("mothership_*.json"))


def test_the_records_are_there() -> None:
    assert len(RECORDS) == 5


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_record_from_before_the_split_replays_to_the_same_end(path: Path) -> None:
    record = Record.loads(path.read_text())
    assert record.final_digest is not None and record.outcome is not None
    final = record.final_state()
    assert final.is_terminal()
    assert final.digest() == record.final_digest
