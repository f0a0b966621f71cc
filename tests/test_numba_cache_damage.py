"""A damaged numba cache is never executed: each entry carries a checksum of its own bytes and
name (numba_cache.entry_bytes), checked before numba reads it (numba_cache.read_entry), with
an ELF check of the machine code it maps (numba_load.elf_check); a damaged entry is discarded
and compiled again with one notice, and the next run is clean. A cache folder that cannot be
written compiles the kernels in memory with one notice. Each case runs in subprocesses, with a
fresh cache of its own."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from reference_trees import ROOT
from wordtree import numba_cache
from wordtree.numba_cache import DamagedEntry, entry_bytes, read_entry
from wordtree.numba_load import elf_check

_PROBE = """
import numpy as np
from wordtree.exact import kernels

matrix = (np.arange(12, dtype=np.uint8).reshape(3, 4) * 7) % 5
out = np.empty((4, 3), np.uint8)
kernels._transpose(matrix, out, 0, 3, np.zeros(256, np.bool_))
print(kernels._codes_present(matrix, 5).tolist(), (out == matrix.T).all())
"""
_EXPECTED = "[True, True, True, True, True] True"


def _run(env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)


def _compiling(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("notice: compil")]


def _entry(folder, kernel: str, suffix: str):
    [path] = folder.rglob(f"kernels.{kernel}-*{suffix}")
    return path


def _flip_elf_header(path) -> None:
    data = bytearray(path.read_bytes())
    at = data.find(b"\x7fELF")
    assert at > 0
    data[at + 1:at + 4] = b"XYZ"
    path.write_bytes(bytes(data))


def _forge_elf_header(path) -> None:
    """The ELF magic of the machine code broken, and the checksum made again over the result: an
    entry whose checksum holds, but whose object is not one (elf_check's case)."""
    blob = read_entry(path)
    at = blob.find(b"\x7fELF")
    assert at > 0
    path.write_bytes(entry_bytes(path.name, blob[:at + 1] + b"XYZ" + blob[at + 4:]))


def _truncate(path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _swap(one, other) -> None:
    a, b = one.read_bytes(), other.read_bytes()
    one.write_bytes(b)
    other.write_bytes(a)


def _fifo(path) -> None:
    path.unlink()
    os.mkfifo(path)


def _unverified(path) -> None:
    """An entry as numba itself writes it (a cache from before the checksums): numba's bytes only."""
    path.write_bytes(read_entry(path))


DAMAGE = {
    "elf-header-flipped": lambda folder: _flip_elf_header(_entry(folder, "_codes_present", ".nbc")),
    "elf-header-forged": lambda folder: _forge_elf_header(_entry(folder, "_codes_present", ".nbc")),
    "data-truncated": lambda folder: _truncate(_entry(folder, "_codes_present", ".nbc")),
    "index-truncated": lambda folder: _truncate(_entry(folder, "_codes_present", ".nbi")),
    "data-swapped": lambda folder: _swap(_entry(folder, "_codes_present", ".nbc"), _entry(folder, "_transpose", ".nbc")),
    "index-swapped": lambda folder: _swap(_entry(folder, "_codes_present", ".nbi"), _entry(folder, "_transpose", ".nbi")),
    "data-fifo": lambda folder: _fifo(_entry(folder, "_codes_present", ".nbc")),
    "index-fifo": lambda folder: _fifo(_entry(folder, "_transpose", ".nbi")),
    "no-checksum": lambda folder: _unverified(_entry(folder, "_codes_present", ".nbc")),
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_cache_entry_is_discarded_and_compiled_again_never_run(tmp_path, damage):
    folder = tmp_path / "numba"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder))
    first = _run(env)
    assert first.returncode == 0 and first.stdout.strip() == _EXPECTED, first.stderr
    assert _run(env).stderr == ""  # loaded from the cache, nothing said

    DAMAGE[damage](folder)
    damaged = _run(env)
    assert damaged.returncode == 0 and damaged.stdout.strip() == _EXPECTED, damaged.stderr
    assert "Traceback" not in damaged.stderr
    said = [line for line in damaged.stderr.splitlines() if line not in _compiling(damaged.stderr)]
    assert len(said) == 1 and said[0].startswith("notice: unreadable numba cache entries"), damaged.stderr
    assert _compiling(damaged.stderr), damaged.stderr  # compiled again, not loaded

    healed = _run(env)
    assert healed.returncode == 0 and healed.stdout.strip() == _EXPECTED and healed.stderr == "", healed.stderr


def test_a_cache_folder_that_cannot_be_written_compiles_in_memory_with_a_notice(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(blocker / "numba"))
    for _ in range(2):  # nothing kept: each run compiles, and says so once
        proc = _run(env)
        assert proc.returncode == 0 and proc.stdout.strip() == _EXPECTED, proc.stderr
        said = [line for line in proc.stderr.splitlines() if line not in _compiling(proc.stderr)]
        assert len(said) == 1 and said[0].startswith("notice: the numba cache folder cannot be written"), proc.stderr
        assert str(blocker) in said[0] and "Traceback" not in proc.stderr


def test_read_entry_checks_the_file_before_reading_it(tmp_path, monkeypatch):
    """The checks themselves: a missing file is None; a good one gives numba's bytes; another
    name, one byte changed, no header, a FIFO, a folder, a symbolic link and a file past the bound
    are each a DamagedEntry."""
    good = tmp_path / "k.nbc"
    good.write_bytes(entry_bytes(good.name, b"numba's bytes"))
    assert read_entry(tmp_path / "missing.nbc") is None
    assert read_entry(good) == b"numba's bytes"
    renamed = tmp_path / "other.nbc"
    renamed.write_bytes(good.read_bytes())
    changed = tmp_path / "changed.nbc"
    changed.write_bytes(entry_bytes(changed.name, b"numba's bytes")[:-1] + b"!")
    plain = tmp_path / "plain.nbc"
    plain.write_bytes(b"numba's bytes")
    fifo = tmp_path / "fifo.nbc"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.nbc"
    folder.mkdir()
    link = tmp_path / "link.nbc"
    link.symlink_to(good)
    for path in (renamed, changed, plain, fifo, folder, link):
        with pytest.raises(DamagedEntry):
            read_entry(path)
    monkeypatch.setattr(numba_cache, "ENTRY_MAX_BYTES", 8)
    with pytest.raises(DamagedEntry, match="larger"):
        read_entry(good)


def test_elf_check_takes_an_object_of_this_machine_only():
    import llvmlite.binding as ll

    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    module = ll.parse_assembly("define i64 @f(i64 %a) {\n  ret i64 %a\n}\n")
    machine = ll.Target.from_default_triple().create_target_machine()
    code = machine.emit_object(module)
    if not sys.platform.startswith("linux"):
        pytest.skip("machine code is an ELF object only on Linux")
    elf_check(code)
    for bad in (code[:1] + b"XYZ" + code[4:], code[:40], code[:4] + b"\x01" + code[5:], code[:200]):
        with pytest.raises(ValueError):
            elf_check(bad)
