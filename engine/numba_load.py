"""A cached kernel loads without what only a compile needs.

numba's cache entry for a kernel holds its machine code (an object file, its callees linked in)
and, beside it, the kernel as LLVM bitcode, which only a compile that calls the kernel needs (to
link it in). Loading an entry the way numba does costs more than running it for a small build:
numba sets up its compiler's registries, compiles its runtime's functions, imports the modules
where its own inlined functions live, and parses that bitcode. `light_load()` returns a loader
that does none of these unless something needs them:

- **No registries**: numba's `Cache.load_overload` first refreshes the target context, which
  imports some seventy modules of numba's lowering and typing and installs a thousand templates
  (0.14 s). A cache hit needs none of them; a miss compiles, and numba's compiler refreshes both
  contexts itself.
- **The runtime from a file** (`initialize_runtime`): numba's runtime (NRT) compiles a few
  functions of its own with LLVM in every process (20-30 ms). Their machine code is kept beside
  the kernels' cache, under numba's own key for machine code and the settings that change it.
- **Stand-in environments** (`_rebuild_env`): each function in an entry has an environment
  holding its module's globals, which only object mode reads; numba rebuilds it by importing the
  module. For numba's own functions (`np.zeros` lives in `numba.np.arrayobj`) that import costs
  20 ms and is never used: nopython code reads only the environment's constants. A module not
  yet imported gets a stand-in dict that names it (its pickled form is unchanged).
- **Bitcode on demand** (`_unserialize`): numba parses the bitcode at load to learn which symbols
  the entry defines (14-20 ms for the build's search kernel). The object file's symbol table
  names the same symbols (`elf_defined_symbols`, a bounded reader: the file may be damaged), and
  the bitcode is parsed when a compile first links the kernel. An object that is not a 64-bit
  little-endian ELF file, or that does not read cleanly, is loaded as numba does.

The stand-ins and the deferred bitcode apply only inside this package's cache loads, which hold
numba's compiler lock. `plain_array_typeof()` spares a kernel's first call the import of
`numpy.ma`, which numba's typeof of an array makes (7 ms) to rule out a masked array.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

# numba's runtime (NRT) compiles a few functions of its own (reference counts, atomic adds) with
# LLVM in every process that loads a kernel: 20-30 ms of a build's start. Their machine code
# depends only on numba, llvmlite, the processor and a few of numba's settings (its runtime's
# debug output, the optimization level), so it is kept beside the kernels' cache under those.
RUNTIME_MAGIC = b"wordtree-nrt/1\n"
RUNTIME_MAX_BYTES = 1 << 20  # the file holds about 6 kB: anything past this is not one
runtime_source: str | None = None  # how this process set up the runtime: "file", "compiled" or "numba"


def light_load():
    """numba's cache load without what only a compile needs (this module's docstring), or None
    where this numba lacks the parts it calls (numba's own load is used then). The loader is
    called as `Cache.load_overload` is: `load(cache, sig, target_context)`."""
    from numba.core import caching, codegen, environment

    try:
        from numba.core.runtime import nrt
    except ImportError:
        return None
    parts = ("_load_overload", "_guard_against_spurious_io_errors")
    if not all(hasattr(caching.Cache, part) for part in parts) or not hasattr(nrt, "rtsys"):
        return None
    return _Loader(environment, codegen.CPUCodeLibrary)


class _Loader:
    """`light_load`'s loader: the runtime set up from its file, then numba's load of the entry
    with the stand-in environments and the bitcode on demand (each where this numba has the
    parts it replaces), put back once the entry is loaded."""

    def __init__(self, environment, library_class):
        self.environment, self.library_class = environment, library_class
        self.own_rebuild = getattr(environment, "_rebuild_env", None)
        self.stand_ins = self.own_rebuild is not None and hasattr(environment, "lookup_environment")
        self.own_unserialize = library_class.__dict__.get("_unserialize")
        self.on_demand = isinstance(self.own_unserialize, classmethod) and all(
            hasattr(library_class, name) for name in ("enable_object_caching", "_set_compiled_object",
                                                      "_finalize_final_module", "_get_module_for_linking"))

    def __call__(self, cache, sig, target_context):
        initialize_runtime(target_context, getattr(cache, "_cache_path", None))
        if self.stand_ins:
            self.environment._rebuild_env = self.rebuild_env
        if self.on_demand:
            self.library_class._unserialize = classmethod(self.unserialize)
        try:
            with cache._guard_against_spurious_io_errors():
                return cache._load_overload(sig, target_context)
        finally:
            if self.stand_ins:
                self.environment._rebuild_env = self.own_rebuild
            if self.on_demand:
                self.library_class._unserialize = self.own_unserialize

    def rebuild_env(self, modname, consts, env_name):
        """numba's `environment._rebuild_env` (an environment from its pickled form), except that
        a module of numba's own that is not imported yet is not imported: the environment gets a
        stand-in for the module's globals, which nopython code never reads."""
        environment = self.environment
        if not isinstance(modname, str) or not modname.startswith("numba.") or modname in sys.modules:
            return self.own_rebuild(modname, consts, env_name)
        env = environment.lookup_environment(env_name)
        if env is not None:
            return env
        env = environment.Environment({"__name__": modname})  # pickled again, it names the module as numba's does
        env.consts[:] = consts
        env.env_name = env_name
        environment.Environment._memo[env_name] = env  # as numba keeps it: a later compile finds it by name
        return env

    def unserialize(self, cls, codegen, state):
        """numba's `CPUCodeLibrary._unserialize`, except that for an entry kept as machine code the
        symbols it defines are read from the object file and its bitcode is parsed only when a
        compile links the library in (`_LinkingModule`)."""
        name, kind, data = state
        if kind == "object" and isinstance(data, tuple) and data and isinstance(data[0], bytes):
            elf_check(data[0])
        engine = getattr(codegen, "_engine", None)  # numba's JitEngine: it tracks the symbols defined so far
        known = kind == "object" and isinstance(data, tuple) and len(data) == 2 and isinstance(data[0], bytes)
        defined = elf_defined_symbols(data[0]) if known else None  # (another form of entry: numba's own load)
        if defined is None or not isinstance(getattr(engine, "_defined_symbols", None), set):
            return self.own_unserialize.__func__(cls, codegen, state)
        object_code, bitcode = data
        library = codegen.create_library(name)
        library.enable_object_caching()
        library._set_compiled_object(object_code)
        library._finalize_final_module()
        engine._defined_symbols |= defined
        library._get_module_for_linking = _LinkingModule(library, bitcode)
        return library


class _LinkingModule:
    """A loaded library's `_get_module_for_linking`: its bitcode, parsed the first time a compile
    links the library in (or numba serializes it), then kept where numba keeps it."""

    def __init__(self, library, bitcode: bytes):
        self.library, self.bitcode = library, bitcode

    def __call__(self):
        if self.library._shared_module is None:
            import llvmlite.binding as ll

            self.library._shared_module = ll.parse_bitcode(self.bitcode)
        return self.library._shared_module


def initialize_runtime(target_context, folder) -> None:
    """`rtsys.initialize(target_context)`, with the runtime's compiled functions read from
    `folder` (the cache folder of the kernel being loaded) when a file there was written by the
    same numba, llvmlite and processor (numba's own key for its cache: `magic_tuple`) under the
    same runtime settings (`_runtime_key`), and written there otherwise. A file that is missing, damaged or not one (its checksum, its size,
    its key) is compiled again and replaced; with no folder, or a numba lacking the parts used
    here, numba's own set-up runs. Callers hold numba's compiler lock (a cache load does)."""
    global runtime_source
    from numba.core.runtime import nrt

    if getattr(nrt.rtsys, "_init", False):
        return
    try:
        from numba.core.runtime import nrtdynmod
        codegen = target_context.codegen()
        key = _runtime_key(codegen)
        usable = all(hasattr(nrtdynmod, name) for name in ("compile_nrt_functions", "create_nrt_module"))
    except Exception:  # noqa: BLE001 - any numba that differs here gets its own set-up
        usable = False
    if folder is None or not usable:
        nrt.rtsys.initialize(target_context)
        runtime_source = "numba"
        return
    path = Path(folder) / f"wordtree-nrt-{key[:16]}.bin"
    state = read_runtime(path, key)
    if state is not None:
        try:
            _initialize_with(nrt, nrtdynmod, target_context, lambda ctx: ctx.codegen().unserialize_library(state))
            runtime_source = "file"
            return
        except Exception:  # noqa: BLE001 - a file numba cannot load is compiled again below
            pass

    own = nrtdynmod.compile_nrt_functions

    def compile_and_keep(ctx):
        ir_module, library = nrtdynmod.create_nrt_module(ctx)
        try:
            library.enable_object_caching()
        except Exception:  # noqa: BLE001 - a numba without it: compiled as numba does, not kept
            return own(ctx)
        library.add_ir_module(ir_module)
        library.finalize()
        try:
            write_runtime(path, key, library.serialize_using_object_code())
        except Exception:  # noqa: BLE001 - not kept: the next run compiles it again
            pass
        return library

    _initialize_with(nrt, nrtdynmod, target_context, compile_and_keep)
    runtime_source = "compiled"


def _initialize_with(nrt, nrtdynmod, target_context, compile_functions) -> None:
    """rtsys.initialize, with `compile_functions(ctx)` making the runtime's library."""
    own = nrtdynmod.compile_nrt_functions
    nrtdynmod.compile_nrt_functions = compile_functions
    try:
        nrt.rtsys.initialize(target_context)
    finally:
        nrtdynmod.compile_nrt_functions = own


def _runtime_key(codegen) -> str:
    import hashlib

    import llvmlite
    import numba

    from numba.core import config

    # numba's own cache key for machine code (versions, processor), and the settings that change
    # the runtime's functions (its debug output) or their optimization
    settings = tuple(repr(getattr(config, name, None)) for name in ("DEBUG_NRT", "DEBUG_NRT_STACK_LIMIT", "OPT",
                                                                     "MACHINE_BITS"))
    text = repr((numba.__version__, llvmlite.__version__, codegen.magic_tuple(), settings))
    return hashlib.sha256(text.encode()).hexdigest()


def write_runtime(path: Path, key: str, state) -> None:
    """Keep the runtime library `state` (numba's serialized form: name, "object", (machine code,
    bitcode)) at `path`, atomically; a folder that refuses it only costs the next run its compile."""
    import hashlib
    import struct

    from .files import write_atomic

    name, kind, (code, bitcode) = state
    if kind != "object":
        return
    name_bytes = name.encode()
    payload = b"".join((struct.pack("<III", len(name_bytes), len(code), len(bitcode)), name_bytes, code, bitcode))
    try:
        write_atomic(path, RUNTIME_MAGIC + key.encode() + b"\n" + hashlib.sha256(payload).hexdigest().encode()
                     + b"\n" + payload)
    except OSError:
        pass


def read_runtime(path: Path, key: str):
    """The state `write_runtime` kept at `path` for `key`, or None: missing, unreadable, larger
    than RUNTIME_MAX_BYTES, another key, or damaged (its checksum or its lengths)."""
    import hashlib
    import struct

    from .files import open_regular  # a FIFO or a device there is no state, and is not waited on

    try:
        with open_regular(path) as f:
            data = f.read(RUNTIME_MAX_BYTES + 1)
    except OSError:
        return None
    head = len(RUNTIME_MAGIC) + 2 * (64 + 1)
    if len(data) > RUNTIME_MAX_BYTES or len(data) < head + 12 or not data.startswith(RUNTIME_MAGIC):
        return None
    lines = data[len(RUNTIME_MAGIC):head].split(b"\n")
    payload = data[head:]
    if lines[0] != key.encode() or lines[1] != hashlib.sha256(payload).hexdigest().encode():
        return None
    name_len, code_len, bitcode_len = struct.unpack_from("<III", payload)
    if 12 + name_len + code_len + bitcode_len != len(payload):
        return None
    at = 12 + name_len
    try:
        name = payload[12:at].decode()
    except UnicodeDecodeError:
        return None
    return name, "object", (payload[at:at + code_len], payload[at + code_len:])


def plain_array_typeof() -> None:
    """Register, once, a typeof for arrays whose type is exactly `numpy.ndarray` that types them
    as numba's own does (`typing.typeof._typeof_ndarray`), without first asking whether they are
    `numpy.ma.MaskedArray`s: that question imports `numpy.ma` (7 ms of a build's start), and no
    such array is one. Any other array (a subclass) goes to numba's own; a numba without these
    parts is left alone."""
    global _typeof_installed
    if _typeof_installed:
        return
    _typeof_installed = True
    import numpy as np

    try:
        from numba.core import errors, types
        from numba.core.typing.typeof import typeof_impl
        from numba.np.numpy_support import from_dtype, map_layout

        own = typeof_impl.dispatch(np.ndarray)
        not_implemented, value_error = errors.NumbaNotImplementedError, errors.NumbaValueError
    except (ImportError, AttributeError):
        return

    def typeof_array(val, c):
        if type(val) is not np.ndarray:
            return own(val, c)
        try:
            dtype = from_dtype(val.dtype)
        except not_implemented:
            raise value_error(f"Unsupported array dtype: {val.dtype}") from None
        return types.Array(dtype, val.ndim, map_layout(val), readonly=not val.flags.writeable)

    typeof_impl.register(np.ndarray)(typeof_array)


_typeof_installed = False


# The ELF64 layouts read here (little-endian): the file header, a section header, a symbol.
_ELF_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_SECTION = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")
_SYMTAB, _UNDEFINED, _SECTION_SYMBOL, _FILE_SYMBOL = 2, 0, 3, 4


def elf_check(data: bytes) -> None:
    """On Linux, where numba's machine code is an ELF object, raise ValueError unless `data` looks
    like one of this machine's: its magic, 64 bits, this byte order, a relocatable file, and a
    section table that lies inside `data` (LLVM would otherwise read past it, or abort). A cache
    entry's checksum (numba_cache.read_entry) already catches damage; this stops an object that
    was never one."""
    if not sys.platform.startswith("linux"):
        return
    order = b"\x01" if sys.byteorder == "little" else b"\x02"
    if len(data) < _ELF_HEADER.size or data[:4] != b"\x7fELF" or data[4:5] != b"\x02" or data[5:6] != order:
        raise ValueError("a cached kernel's machine code is not an ELF object of this machine")
    header = struct.unpack_from(("<" if order == b"\x01" else ">") + _ELF_HEADER.format[1:], data)
    kind, section_offset, section_size, sections = header[1], header[6], header[11], header[12]
    if kind != 1 or section_size != _SECTION.size or section_offset + sections * section_size > len(data):
        raise ValueError("a cached kernel's machine code is a damaged ELF object")


def elf_defined_symbols(data: bytes) -> frozenset[str] | None:
    """The names of the symbols a 64-bit little-endian ELF object defines (functions and data:
    not the section and file entries), or None for anything else and for any offset, size or name
    that does not lie inside `data`."""
    if len(data) < _ELF_HEADER.size or data[:6] != b"\x7fELF\x02\x01":
        return None
    header = _ELF_HEADER.unpack_from(data)
    section_offset, section_size, sections = header[6], header[11], header[12]
    if section_size != _SECTION.size or not 0 < sections <= 1 << 16 or section_offset + sections * _SECTION.size > len(data):
        return None
    table = [_SECTION.unpack_from(data, section_offset + i * _SECTION.size) for i in range(sections)]
    names, tables = set(), 0
    for _, kind, _, _, offset, size, link, _, _, entry in table:
        if kind != _SYMTAB:
            continue
        tables += 1
        if entry != _SYMBOL.size or size % entry or offset + size > len(data) or link >= sections:
            return None
        strings_offset, strings_size = table[link][4], table[link][5]
        if strings_offset + strings_size > len(data):
            return None
        strings = data[strings_offset:strings_offset + strings_size]
        for name, info, _, where, _, _ in _SYMBOL.iter_unpack(data[offset:offset + size]):
            if where == _UNDEFINED or name == 0 or (info & 0xF) in (_SECTION_SYMBOL, _FILE_SYMBOL):
                continue
            end = strings.find(b"\0", name)
            if end < 0:
                return None
            try:
                names.add(strings[name:end].decode())
            except UnicodeDecodeError:
                return None
    return frozenset(names) if tables == 1 else None
