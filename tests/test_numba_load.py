"""numba_load: a cached kernel loads without what only a compile needs (numba's registries, its
runtime compiled again, numba's own modules imported, the kernel's bitcode parsed), and runs, is
linked by a later compile and raises exactly as numba's own load would have it."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest

from reference_trees import ROOT, write_lists

_CACHED_THEN_COMPILED = """
import sys
import numba
import numpy as np
from numba.core.registry import cpu_target
from wordtree import numba_load
from wordtree.exact import kernels

if sys.argv[1:] == ["numbas-own"]:  # an object numba_load cannot read: numba's own load
    numba_load.elf_defined_symbols = lambda data: None

matrix = (np.arange(12, dtype=np.uint8).reshape(3, 4) * 7) % 5
present = kernels._codes_present(matrix, 5)  # the second process loads it from numba's cache
light = len(cpu_target.target_context._registries) == 0
out = np.empty((4, 3), np.uint8)
kernels._transpose(matrix, out, 0, 3, np.zeros(256, np.bool_))
[loaded] = kernels._codes_present.overloads.values()
deferred = loaded.library._shared_module is None  # its bitcode not parsed yet
unimported = "numba.np.arrayobj" not in sys.modules and "numpy.ma" not in sys.modules
try:
    kernels._codes_present(matrix, -1)  # np.zeros(-1): numba's own code raises, from a stand-in environment
    raised = "nothing"
except ValueError as exc:
    raised = str(exc).replace(" ", "_")


@numba.njit
def fresh(a):  # never cached: compiled here, after the loads (strings need numba's registries)
    return a.sum() + len("four")


@numba.njit
def linked(m, n):  # compiled here: links the loaded kernel (n is typed as int64, as it was loaded) into its own
    return kernels._codes_present(m, n).sum()


print(light, deferred, unimported, raised, present.tolist() == [bool((matrix == c).any()) for c in range(5)],
      (out == matrix.T).all(), fresh(np.arange(4)), linked(matrix, 5), loaded.library._shared_module is not None,
      len(kernels._codes_present.overloads))
"""


@pytest.mark.parametrize("numbas_own", [False, True])
def test_a_cached_kernel_loads_light_runs_raises_and_links_into_a_later_compile(tmp_path, numbas_own):
    """A cache hit sets up none of numba's typing and lowering registries, imports neither
    numba.np.arrayobj (np.zeros's home) nor numpy.ma, and leaves the kernel's bitcode unparsed; the
    kernel runs right, raises numba's own error from numba's own code, and a function compiled
    after it (whose compiler sets the registries up) links it in. With the object file unread
    (numba's own load of the library), all the same except that the bitcode is parsed at once."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    printed = []
    for _ in range(2):  # the first process compiles the kernels, the second loads them
        proc = subprocess.run([sys.executable, "-c", _CACHED_THEN_COMPILED, *(["numbas-own"] if numbas_own else [])],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
        assert proc.returncode == 0, proc.stderr
        printed.append(proc.stdout.split())
    error = "negative_dimensions_not_allowed"
    assert printed[0] == ["False", "False", "False", error, "True", "True", "10", "5", "True", "1"]  # compiled
    assert printed[1] == ["True", str(not numbas_own), "True", error, "True", "True", "10", "5", "True", "1"]


_LOADED_SYMBOLS = """
import llvmlite.binding as ll
import numpy as np
from wordtree import numba_load
from wordtree.exact import kernels
from wordtree.exact.build import build
from wordtree.games.wordle import Wordle
from wordtree.words import WordList, canonical_sha256

loaded = {}
own = numba_load._Loader.unserialize


def unserialize(self, cls, codegen, state):  # what each load reads: the object file and the bitcode
    if state[1] == "object":
        loaded[state[0]] = state[2]
    return own(self, cls, codegen, state)


numba_load._Loader.unserialize = unserialize
answers = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve", "heath",
           "dwarf", "model", "karma", "stink", "grade", "quiet", "bench"]
guesses = sorted(set(answers) | {"salet", "crony", "adieu", "trace", "lapse"})
lists = [WordList(n, n, tuple(w), canonical_sha256(w)) for n, w in (("a", sorted(answers)), ("g", guesses))]
game = Wordle("wordle", *lists)
matrix = game._compute_matrix()
build(game, matrix, None, 6, threads=1)
kernels._codes_present(matrix, 256)
differ = []
for name, (code, bitcode) in loaded.items():
    module = ll.parse_bitcode(bitcode)
    defined = {gv.name for gvs in (module.functions, module.global_variables) for gv in gvs if not gv.is_declaration}
    if numba_load.elf_defined_symbols(code) != defined or not defined:
        differ.append(name)
print(len(loaded), len(differ), sorted(name.split(".")[-1].split("$")[0] for name in loaded))
"""


def test_the_object_files_symbols_are_the_bitcodes_defined_ones():
    """elf_defined_symbols, which stands in for parsing the bitcode at load, names exactly the
    symbols the bitcode defines, for every kernel library a build loads (the search's among them),
    as read from numba's cache (the second process; the first may compile them)."""
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", _LOADED_SYMBOLS], capture_output=True, text=True, cwd=ROOT,
                              timeout=900)
        assert proc.returncode == 0, proc.stderr[-3000:]
    count, differ, *_ = proc.stdout.split()
    assert int(count) >= 3 and differ == "0", proc.stdout
    assert all(name in proc.stdout for name in ("_solve", "_transpose", "_codes_present")), proc.stdout


def test_a_damaged_object_file_is_not_read():
    """elf_defined_symbols on a cut, flipped or foreign object: a set or None, never an exception
    nor a read outside the data (a name that runs off its table is refused)."""
    import numba

    from wordtree.numba_load import elf_defined_symbols

    @numba.njit
    def tiny(a):  # compiled here: its library's module is whole, and LLVM makes its object file
        return np.zeros(a.size).sum()

    tiny(np.arange(3))
    [result] = tiny.overloads.values()
    code = result.library._codegen._tm.emit_object(result.library._final_module)
    assert elf_defined_symbols(code)
    for bad in (b"", b"\x7fELF", code[:63], code[:len(code) // 2], b"\x7fELF\x01" + code[5:],
                b"\x7fELF\x02\x02" + code[6:], b"MZ" + code[2:]):
        assert elf_defined_symbols(bad) is None
    rng = random.Random(5)
    for _ in range(300):
        damaged = bytearray(code)
        for _ in range(rng.randint(1, 8)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        result = elf_defined_symbols(bytes(damaged[:rng.randint(64, len(damaged))]))
        assert result is None or isinstance(result, frozenset)


def test_an_arrays_type_is_numbas_own_without_numpy_ma():
    """plain_array_typeof types an array of type ndarray as numba's own typeof does (dtype, ndim,
    layout, read-only), raises as it does for a dtype numba lacks, and leaves subclasses to it."""
    from numba.core import errors
    from numba.core.typing.typeof import Purpose, _typeof_ndarray, _TypeofContext, typeof

    from wordtree.numba_load import plain_array_typeof

    plain_array_typeof()
    c = _TypeofContext(Purpose.argument)
    base = np.arange(24)
    readonly = np.arange(6.0)
    readonly.flags.writeable = False
    arrays = [base, base.reshape(4, 6), base.reshape(4, 6).T, base.reshape(4, 6)[:, ::2], base[::3], np.float32(1) * base,
              np.zeros((2, 3, 4), np.uint8), np.zeros(0, np.int16), np.array(5), readonly, np.zeros(3, np.complex128),
              np.zeros(3, "M8[D]"), np.zeros(3, "m8[s]"), np.zeros(3, "U3"), np.zeros(3, "S2"), np.zeros(3, np.bool_),
              np.zeros(2, [("a", np.int32), ("b", np.float64)]), np.asfortranarray(np.ones((3, 2))), np.zeros(2, object),
              np.zeros(2, np.float16), np.zeros(2, "M8")]
    for array in arrays:
        assert typeof(array) == _typeof_ndarray(array, c), array.dtype
    for unsupported in (np.zeros(2, "V3"), np.zeros(2, np.longdouble)):
        with pytest.raises(errors.NumbaValueError) as ours:
            typeof(unsupported)
        with pytest.raises(errors.NumbaValueError) as own:
            _typeof_ndarray(unsupported, c)
        assert str(ours.value) == str(own.value)
    masked = np.ma.masked_array([1, 2])
    with pytest.raises(errors.NumbaTypeError):  # a subclass: numba's own, which refuses a masked array
        typeof(masked)
    subclass = type("Sub", (np.ndarray,), {})
    assert typeof(base.view(subclass)) == _typeof_ndarray(base.view(subclass), c)


_RUNTIME_FROM_FILE = """
import sys
import numba
import numpy as np
from numba.core import codegen
from wordtree import numba_load
from wordtree.exact import kernels

if sys.argv[1:] == ["unkept"]:  # a numba whose library cannot be serialized: compiled, not kept
    def refuse(self):
        raise RuntimeError("no serialization here")
    codegen.CPUCodeLibrary.serialize_using_object_code = refuse

matrix = (np.arange(12, dtype=np.uint8).reshape(3, 4) * 7) % 5
present = kernels._codes_present(matrix, 5)  # an array the runtime allocates, counts and frees


@numba.njit
def fresh(n):  # compiled here, after the runtime's set-up: allocates through it too
    return np.ones(n).sum() + np.arange(n).sum()


print(numba_load.runtime_source, present.tolist() == [bool((matrix == c).any()) for c in range(5)], fresh(4))
"""


def test_numbas_runtime_is_kept_beside_the_kernels_and_rebuilt_when_damaged(tmp_path):
    """numba_load.initialize_runtime: the first process compiles the runtime's functions and keeps
    them beside the kernels' cache, the next loads them; a damaged file (cut short, or one byte
    changed) is compiled again and replaced; another optimization level keeps a file of its own; a
    numba that cannot serialize the runtime's library compiles it as numba does. Kernels and a
    fresh compile run right each time."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))

    def run(*args: str) -> list[str]:
        proc = subprocess.run([sys.executable, "-c", _RUNTIME_FROM_FILE, *args], capture_output=True, text=True,
                              cwd=ROOT, env=env, timeout=600)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stdout.split()

    assert run("unkept") == ["compiled", "True", "10.0"]  # (its kernels compile and are cached meanwhile)
    assert not list((tmp_path / "numba").rglob("wordtree-nrt-*.bin"))
    assert run() == ["compiled", "True", "10.0"]
    [kept] = (tmp_path / "numba").rglob("wordtree-nrt-*.bin")
    good = kept.read_bytes()
    assert run() == ["file", "True", "10.0"]
    for damaged in (good[:-100], good[:-1] + bytes([good[-1] ^ 1]), b"", b"x" * 100):
        kept.write_bytes(damaged)
        assert run() == ["compiled", "True", "10.0"]
        assert kept.read_bytes() == good  # the same machine code, kept again
    env["NUMBA_OPT"] = "2"  # a setting that changes how the runtime's functions are compiled: a file of its own
    assert run() == ["compiled", "True", "10.0"]
    assert run() == ["file", "True", "10.0"]
    assert len(list((tmp_path / "numba").rglob("wordtree-nrt-*.bin"))) == 2 and kept.read_bytes() == good


def test_a_runtime_file_is_read_only_for_its_key_and_within_bounds(tmp_path, monkeypatch):
    from wordtree import numba_load

    path, key = tmp_path / "nrt.bin", "ab" * 32
    state = ("nrt", "object", (b"code" * 10, b"bitcode" * 5))
    numba_load.write_runtime(path, key, state)
    assert numba_load.read_runtime(path, key) == state
    assert numba_load.read_runtime(path, "cd" * 32) is None
    assert numba_load.read_runtime(tmp_path / "none.bin", key) is None
    monkeypatch.setattr(numba_load, "RUNTIME_MAX_BYTES", path.stat().st_size - 1)
    assert numba_load.read_runtime(path, key) is None




def test_numbas_own_load_is_used_where_its_parts_are_missing(monkeypatch):
    from numba.core import caching

    from wordtree import numba_load

    assert numba_load.light_load() is not None
    monkeypatch.delattr(caching.Cache, "_load_overload")
    assert numba_load.light_load() is None


_EXTENSIONS_PROBE = """
import sys
from wordtree import numba_cache
if sys.argv[1:] == ["command"]:
    numba_cache.without_numba_extensions()
import numpy as np
from wordtree.exact import kernels  # imports numba (numba_cache.import_numba)
from numba.core import entrypoints
present = kernels._codes_present(np.arange(4, dtype=np.uint8).reshape(2, 2), 5)
deferred = "email" not in sys.modules and type(sys.modules["importlib.metadata"]).__name__ == "_LazyModule"
import importlib.metadata
print(deferred, entrypoints._already_initialized, importlib.metadata.version("numpy") == np.__version__, present.sum())
"""


@pytest.mark.parametrize("command", [True, False])
def test_a_command_imports_numba_without_its_extensions_and_a_library_with_them(command):
    """numba_cache.without_numba_extensions (a command's process): numba is imported without
    importlib.metadata, which loads once something uses it, and numba's extensions are not looked
    for; a program that imports the engine for itself gets numba as usual (importlib.metadata
    imported, the extensions looked for at the first call of a kernel)."""
    proc = subprocess.run([sys.executable, "-c", _EXTENSIONS_PROBE, *(["command"] if command else [])],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(command), "True", "True", "4"]


def test_a_build_command_loads_no_importlib_metadata(tmp_path):
    """The wiring: a build's process (commands.main) imports numba without importlib.metadata."""
    answers, guesses = write_lists(tmp_path, 20, 60)
    proc = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "cli.py"), "build", "--answers", str(answers),
                           "--guesses", str(guesses), "--quiet", "-o", str(tmp_path / "tree.json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")]
    assert "numba.core.entrypoints" in imported and "wordtree.exact.kernels" in imported
    assert not [name for name in imported if name.startswith("importlib.metadata")]
