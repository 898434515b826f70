"""`make clean` removes build products only; `make wipe-data` goes through the confirmed,
backed-up wipe (issue 25). Checked on what make would run (`make -n`), nothing is executed."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def dry_run(*args: str) -> list[list[str]]:
    done = subprocess.run(
        ["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return [shlex.split(line) for line in done.stdout.splitlines() if line.strip()]


def test_make_clean_never_deletes_the_data_directory() -> None:
    commands = dry_run("clean", "WORKBENCH_HOME=.workbench")
    removals = [c for c in commands if c and c[0] in ("rm", "find")]
    assert removals, commands
    for command in removals:
        if command[0] == "rm":
            assert not any(".workbench" in arg for arg in command), command
        else:  # find … -path ./.workbench -prune -o …: the data directory is pruned first
            assert command[1:4] == [".", "-path", "./.workbench"] and command[4] == "-prune"
    assert any(c[0] == "rm" and ".venv" in c for c in removals)


def test_wipe_data_asks_unless_confirmed() -> None:
    (asking,) = [c for c in dry_run("wipe-data") if "data_access.backup" in c]
    assert asking[-1] == "wipe" and "--yes" not in asking
    (confirmed,) = [c for c in dry_run("wipe-data", "CONFIRM=yes") if "data_access.backup" in c]
    assert confirmed[-2:] == ["wipe", "--yes"]
    (other,) = [c for c in dry_run("wipe-data", "CONFIRM=y") if "data_access.backup" in c]
    assert "--yes" not in other
