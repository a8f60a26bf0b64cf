"""a2a from Python: the all-to-all exchanges and the transpose layer of the a2a library, with
mpi4py communicators and NumPy arrays.

    from mpi4py import MPI
    import numpy as np
    import a2a

    plan = a2a.Plan("tra:r=sqrt", MPI.COMM_WORLD, block_bytes=64)       # collective, once
    plan.execute(send, recv)                                          # collective, many times
    ex = a2a.VectorExchange("sloav", MPI.COMM_WORLD)                  # Alltoallv, counts per call
    ex.execute(send, send_counts, send_displs, recv, recv_counts, recv_displs)   # in bytes
    r = a2a.Redistribution(comm, in_box, out_box, np.complex128)      # slabs <-> pencils
    r.execute(x, y)
    fft = a2a.Fft(comm, (nx, ny, nz), in_box, out_box, kinds=("dct2", "dft", "dft"))
    spectrum = fft.forward(u)                                         # your boxes, any kinds

Boxes are ((lo0, lo1, lo2), (hi0, hi1, hi2)), half-open, arrays C-ordered over their box.

It is ctypes over the library's C API (a2a/a2a.h, a2a/transpose.h, a2a/fft.h), not a compiled extension:
nothing to build per Python version, the C API is the one boundary for C, Fortran and Python
alike (no C++ exception crosses it), and mpi4py communicators cross it as Fortran handles
(Comm.py2f(), MPI_Comm_f2c in the library), whatever the MPI's C handle type. The libraries
are found from the package's install location, or A2A_LIBRARY_DIR.

Errors raise a2a.SpecError (bad backend specs) or a2a.Error; errors while creating a plan,
exchange or redistribution are the same on every rank, so no rank is left waiting.
"""
import ctypes
import gc
import os
import threading

import numpy as np

from . import _config

__all__ = ["Error", "SpecError", "UnsupportedError", "ResourceError", "Plan", "VectorExchange", "Redistribution", "list_algorithms",
           "model", "block_start", "Fft", "slab_box", "pencil_box"]


class Error(RuntimeError):
    """An a2a error; .code is the C API's status (A2A_ERR_*)."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class SpecError(Error):
    """A backend spec that names no algorithm, a bad parameter, an inapplicable backend."""


class UnsupportedError(SpecError):
    """A backend that cannot serve this exchange here (its kind, the placement of the ranks)."""


class ResourceError(Error):
    """Out of memory, shared memory or file space."""


def _load():
    """liba2a_alltoall.so, liba2a_transpose.so, then liba2a_fft.so where a2a was built with it:
    from A2A_LIBRARY_DIR, the directories the build or the install recorded (relative to this
    package), else the system's search path."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [os.environ.get("A2A_LIBRARY_DIR", "")]
    dirs += [os.path.normpath(os.path.join(here, d)) for d in _config.LIBRARY_DIRS]
    libs = []
    for name in ["liba2a_alltoall.so", "liba2a_transpose.so", "liba2a_fft.so"]:
        found = [os.path.join(d, name) for d in dirs if d and os.path.exists(os.path.join(d, name))]
        try:
            libs.append(ctypes.CDLL(found[0] if found else name, mode=ctypes.RTLD_GLOBAL))
        except OSError:
            if name != "liba2a_fft.so":
                raise
            libs.append(None)  # a build without FFTW: a2a.Fft says so when used
    return libs


_lib, _tlib, _flib = _load()
_size_p = ctypes.POINTER(ctypes.c_size_t)


class _Counters(ctypes.Structure):
    _fields_ = [("rounds", ctypes.c_size_t), ("waits", ctypes.c_size_t),
                ("messages_sent", ctypes.c_size_t), ("blocks_sent", ctypes.c_size_t),
                ("bytes_sent", ctypes.c_size_t)]


class _Box(ctypes.Structure):
    _fields_ = [("lo", ctypes.c_int64 * 3), ("hi", ctypes.c_int64 * 3)]


def _declare(lib, name, restype, argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, argtypes
    return f


_c_int, _vp, _cp = ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p
_last_error = _declare(_lib, "a2a_last_error", _cp, [])
_plan_uniform = _declare(_lib, "a2a_plan_create_uniform_f", _c_int,
                         [_cp, _c_int, ctypes.c_size_t, ctypes.POINTER(_vp)])
_plan_vector = _declare(_lib, "a2a_plan_create_vector_f", _c_int,
                        [_cp, _c_int, _size_p, _size_p, _size_p, _size_p, ctypes.POINTER(_vp)])
_plan_execute = _declare(_lib, "a2a_plan_execute", _c_int, [_vp, _vp, _vp])
_plan_name = _declare(_lib, "a2a_plan_name", _cp, [_vp])
_plan_label = _declare(_lib, "a2a_plan_label", _cp, [_vp])
_plan_counters = _declare(_lib, "a2a_plan_counters", _c_int, [_vp, ctypes.POINTER(_Counters)])
_plan_send_extent = _declare(_lib, "a2a_plan_send_extent", ctypes.c_size_t, [_vp])
_plan_recv_extent = _declare(_lib, "a2a_plan_recv_extent", ctypes.c_size_t, [_vp])
_plan_scratch = _declare(_lib, "a2a_plan_scratch_bytes", ctypes.c_size_t, [_vp])
_plan_free = _declare(_lib, "a2a_plan_free", _c_int, [ctypes.POINTER(_vp)])
_exchange_create = _declare(_lib, "a2a_exchange_create_f", _c_int,
                            [_cp, _c_int, ctypes.POINTER(_vp)])
_exchange_execute = _declare(_lib, "a2a_exchange_execute", _c_int,
                             [_vp, _vp, _size_p, _size_p, _vp, _size_p, _size_p])
_exchange_name = _declare(_lib, "a2a_exchange_name", _cp, [_vp])
_exchange_counters = _declare(_lib, "a2a_exchange_counters", _c_int,
                              [_vp, ctypes.POINTER(_Counters)])
_exchange_scratch = _declare(_lib, "a2a_exchange_scratch_bytes", ctypes.c_size_t, [_vp])
_exchange_free = _declare(_lib, "a2a_exchange_free", _c_int, [ctypes.POINTER(_vp)])
_algorithm_count = _declare(_lib, "a2a_algorithm_count", _c_int, [])
_algorithm_info = _declare(_lib, "a2a_algorithm_info", _c_int,
                           [_c_int, ctypes.POINTER(_cp), ctypes.POINTER(ctypes.c_uint),
                            ctypes.POINTER(_cp), ctypes.POINTER(_cp), ctypes.POINTER(_cp)])
_model = _declare(_lib, "a2a_model", _c_int,
                  [ctypes.c_uint64, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64),
                   ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64)])
_redist_create = _declare(_tlib, "a2a_redistribution_create_f", _c_int,
                          [_c_int, ctypes.POINTER(_Box), ctypes.POINTER(_Box), ctypes.c_size_t,
                           _cp, ctypes.POINTER(_vp)])
_redist_execute = _declare(_tlib, "a2a_redistribution_execute", _c_int, [_vp, _vp, _vp])
_redist_backend = _declare(_tlib, "a2a_redistribution_backend", _cp, [_vp])
_redist_uniform = _declare(_tlib, "a2a_redistribution_uniform", _c_int, [_vp])
_redist_share = _declare(_tlib, "a2a_redistribution_share", _c_int, [_vp, _vp])
_redist_memory = _declare(_tlib, "a2a_redistribution_memory_bytes", ctypes.c_size_t,
                          [ctypes.POINTER(_vp), _c_int])
_redist_free = _declare(_tlib, "a2a_redistribution_free", _c_int, [ctypes.POINTER(_vp)])
_block_start = _declare(_tlib, "a2a_block_start", ctypes.c_int64,
                        [ctypes.c_int64, _c_int, _c_int])

# The C API's codes (a2a.h) that have their own class; the others raise Error.
_CLASSES = {1: SpecError, 5: UnsupportedError, 6: ResourceError}
# The same classes by name, and Python's argument errors: what an agreed failure re-raises.
_ERROR_CLASSES = {cls.__name__: cls for cls in (*_CLASSES.values(), TypeError, ValueError,
                                                OverflowError)}


def _check(code):
    if code != 0:
        message = (_last_error() or b"").decode()
        raise _CLASSES.get(code, Error)(message, code)


def _fortran(comm):
    """An mpi4py communicator (or a Fortran handle) as the Fortran handle the C API takes."""
    return comm if isinstance(comm, int) else comm.py2f()


def _mpi4py_comm(comm):
    """comm as an mpi4py intra-communicator, or a2a.Error (the same on every rank: whether a
    communicator is null or an inter-communicator is known locally, alike everywhere)."""
    from mpi4py import MPI
    if isinstance(comm, (bool, np.bool_)) or not isinstance(comm, (int, np.integer, MPI.Comm)):
        raise TypeError(f"comm must be an mpi4py communicator (or a Fortran handle), not "
                        f"{type(comm).__name__}")
    c = MPI.Comm.f2py(int(comm)) if not isinstance(comm, MPI.Comm) else comm
    if c == MPI.COMM_NULL:
        raise Error("the communicator is MPI.COMM_NULL", 2)
    if c.Is_inter():
        raise Error("the communicator is an inter-communicator; a2a needs an intra-communicator "
                    "(Merge() makes one of both groups)", 2)
    return c


def _agreed(c, convert):
    """Collective over c (from _mpi4py_comm): convert() (the arguments' checks and conversions)
    run on every rank, then one allgather of the outcome, so an argument error of one rank raises
    the same exception, with the same message, on every rank instead of leaving the others
    waiting in the create. It also frees the objects on c that every rank has parked
    (_Freeing)."""
    try:
        value, failure = convert(), None
    except (TypeError, ValueError, OverflowError, Error) as e:
        value = None
        failure = (type(e).__name__, str(e), getattr(e, "code", 2))
    freeing = _freeing(c)
    gathered = c.allgather((failure, freeing.parked_orders()))
    freeing.free(set.intersection(*(set(orders) for _, orders in gathered)))
    failures = [f for f, _ in gathered]
    first = next(((r, f) for r, f in enumerate(failures) if f is not None), None)
    if first is None:
        return value
    rank, (kind, message, code) = first
    message = f"{message} (rank {rank})" if c.Get_size() > 1 else message
    cls = _ERROR_CLASSES.get(kind, Error)
    raise cls(message, code) if issubclass(cls, Error) else cls(message)


_INT64_MAX = 2**63 - 1


def _spec(spec):
    """A backend spec as the C API's bytes: a string; None means auto, as NULL does in C."""
    if spec is None:
        return b"auto"
    if not isinstance(spec, str):
        raise TypeError(f"the backend spec must be a string such as 'auto' or 'tra:r=sqrt', not "
                        f"{type(spec).__name__} {spec!r}")
    if "\0" in spec:
        raise ValueError("the backend spec contains a NUL character")
    return spec.encode()


def _integer(value, name, lo=0, hi=_INT64_MAX):
    """value as a Python int in [lo, hi]: integers only (not bool, not float: 8.9 is not 8)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__} {value!r}")
    value = int(value)
    if not lo <= value <= hi:
        raise ValueError(f"{name} = {value} is outside [{lo}, {hi}]")
    return value


def _buffer(array, name, writable=False):
    """The address of a C-contiguous NumPy array (or None for an empty one)."""
    a = np.asarray(array) if not writable else array
    if not isinstance(a, np.ndarray):
        raise TypeError(f"{name} must be a NumPy array")
    if a.dtype.hasobject:
        # Object arrays hold pointers to Python objects, not data (mpi4py refuses them too).
        raise TypeError(f"{name} has dtype {a.dtype}: a2a moves the bytes of numeric arrays")
    if not a.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    if writable and not a.flags.writeable:
        raise ValueError(f"{name} must be writable")
    return a, (a.ctypes.data if a.size else None)


def _counts(values, procs, name):
    """Byte counts or displacements, one per rank: integers in [0, 2^63 - 1]."""
    given = np.asarray(values)
    if given.shape != (procs,):
        raise ValueError(f"{name} must have one entry per rank ({procs}), got shape {given.shape}")
    if given.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, not {given.dtype}")
    if given.size and (int(given.min()) < 0 or int(given.max()) > _INT64_MAX):
        raise ValueError(f"{name} must hold byte counts in [0, 2^63 - 1], got "
                         f"{int(given.min())} .. {int(given.max())}")
    a = np.ascontiguousarray(given, dtype=np.uint64)
    return a, a.ctypes.data_as(_size_p)


def _counters(function, handle):
    c = _Counters()
    _check(function(handle, ctypes.byref(c)))
    return {name: getattr(c, name) for name, _ in _Counters._fields_}


_LAYOUT_NAMES = ("send_counts", "send_displs", "recv_counts", "recv_displs")


def _layout(procs, *arrays):
    """Alltoallv's four per-rank arrays as (values, pointer) pairs, each of length procs."""
    return [_counts(v, procs, n) for v, n in zip(arrays, _LAYOUT_NAMES)]


# Freeing an object is collective: its C free gives back shared-memory windows and
# communicators through MPI's collective calls, which every rank must make in the same order.
# Python frees an object when its last reference goes, at the same point on every rank, except
# one held in a reference cycle: the cycle collector runs when this rank's own allocations
# trigger it, at a different point on each rank, and a collective free there waits forever
# for ranks that are elsewhere. What the collector frees is therefore parked, and freed at the
# next call on its communicator that agrees with the other ranks anyway (_agreed: an object
# made on it, an Fft's forward or backward), where every rank frees what all have parked,
# oldest first.
# The thread the collector runs in (its finalizers run there too); an object another thread
# drops meanwhile is freed as usual, at its own point, the same on every rank.
_collector_thread = None


def _collector_phase(phase, info):
    global _collector_thread
    _collector_thread = threading.get_ident() if phase == "start" else None


gc.callbacks.append(_collector_phase)


class _Freeing:
    """A communicator's a2a objects, for freeing them alike on every rank: how many were made on
    it (the same count on every rank, since making one is collective) and the parked ones, by
    the order they were made in."""

    _keyval = None
    _lock = threading.Lock()

    def __init__(self):
        self.made = 0
        self.parked = {}

    def parked_orders(self):
        with self._lock:
            return tuple(self.parked)

    def park(self, order, free, handle):
        with self._lock:
            self.parked[order] = (free, handle)

    def free(self, orders):
        """Collective: every rank passes the same orders."""
        for order in sorted(orders):
            with self._lock:
                free, handle = self.parked.pop(order)
            free(ctypes.byref(handle))


def _freeing(c):
    """c's _Freeing, kept as an attribute of the communicator (so one freed and remade under
    the same handle starts afresh, and a Dup() has its own)."""
    from mpi4py import MPI
    with _Freeing._lock:
        if _Freeing._keyval is None:
            _Freeing._keyval = MPI.Comm.Create_keyval()
        freeing = c.Get_attr(_Freeing._keyval)
        if freeing is None:
            freeing = _Freeing()
            c.Set_attr(_Freeing._keyval, freeing)
        return freeing


class _Handle:
    """Owns one C handle: freed by close(), leaving a with-block, when its last reference goes,
    or (made collectively again) after the cycle collector found it (_Freeing)."""

    def __init__(self, free):
        self._handle = _vp()
        self._free = free
        self._freeing = None

    def _made_on(self, c):
        """After a successful create on c (collective, so counted alike on every rank)."""
        self._freeing = _freeing(c)
        self._order = self._freeing.made
        self._freeing.made += 1

    def close(self):
        if getattr(self, "_handle", None):
            self._free(ctypes.byref(self._handle))

    def __del__(self):
        collected = _collector_thread == threading.get_ident()
        if collected and getattr(self, "_freeing", None) and getattr(self, "_handle", None):
            self._freeing.park(self._order, self._free, self._handle)
            self._handle = None
        else:
            self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Plan(_Handle):
    """An exchange planned once, executed many times: uniform (block_bytes to and from every
    rank, MPI_Alltoall) or, with Plan.vector(), a fixed Alltoallv layout. Collective."""

    def __init__(self, spec, comm, block_bytes=None, _arrays=None):
        super().__init__(_plan_free)
        c = _mpi4py_comm(comm)
        self._procs = c.Get_size()
        if _arrays is None:
            spec_b, size = _agreed(c, lambda: (_spec(spec), _integer(block_bytes, "block_bytes")))
            _check(_plan_uniform(spec_b, c.py2f(), size, ctypes.byref(self._handle)))
        else:
            spec_b, layout = _agreed(c, lambda: (_spec(spec), _layout(self._procs, *_arrays)))
            _check(_plan_vector(spec_b, c.py2f(), *[p for _, p in layout],
                                ctypes.byref(self._handle)))
        self._made_on(c)

    @classmethod
    def vector(cls, spec, comm, send_counts, send_displs, recv_counts, recv_displs):
        """A fixed-layout Alltoallv plan: per-rank counts and displacements in bytes."""
        return cls(spec, comm, _arrays=(send_counts, send_displs, recv_counts, recv_displs))

    def execute(self, send, recv):
        """Collective: send (only read) into recv, NumPy arrays spanning the plan's extents."""
        send, sp = _buffer(send, "send")
        recv, rp = _buffer(recv, "recv", writable=True)
        if send.nbytes < self.send_extent or recv.nbytes < self.recv_extent:
            raise ValueError(f"buffers of {send.nbytes} and {recv.nbytes} bytes; the plan needs "
                             f"{self.send_extent} and {self.recv_extent}")
        _check(_plan_execute(self._handle, sp, rp))

    @property
    def name(self):
        return _plan_name(self._handle).decode()

    @property
    def label(self):
        return _plan_label(self._handle).decode()

    @property
    def counters(self):
        """What the last execute did on this rank: rounds, waits, messages, blocks, bytes."""
        return _counters(_plan_counters, self._handle)

    @property
    def send_extent(self):
        return _plan_send_extent(self._handle)

    @property
    def recv_extent(self):
        return _plan_recv_extent(self._handle)

    @property
    def scratch_bytes(self):
        """Bytes the plan holds on this rank besides your buffers (its backend's)."""
        return _plan_scratch(self._handle)



class VectorExchange(_Handle):
    """Alltoallv with the counts given every call (in bytes): no plan per call."""

    def __init__(self, spec, comm):
        super().__init__(_exchange_free)
        c = _mpi4py_comm(comm)
        self._procs = c.Get_size()
        _check(_exchange_create(_agreed(c, lambda: _spec(spec)), c.py2f(),
                                ctypes.byref(self._handle)))
        self._made_on(c)

    def execute(self, send, send_counts, send_displs, recv, recv_counts, recv_displs):
        """Collective: MPI_Alltoallv's contract, counts and displacements in bytes."""
        send, sp = _buffer(send, "send")
        recv, rp = _buffer(recv, "recv", writable=True)
        (sc, scp), (sd, sdp), (rc, rcp), (rd, rdp) = _layout(
            self._procs, send_counts, send_displs, recv_counts, recv_displs)
        need_send = max((int(c) + int(d) for c, d in zip(sc, sd) if c), default=0)
        need_recv = max((int(c) + int(d) for c, d in zip(rc, rd) if c), default=0)
        if send.nbytes < need_send or recv.nbytes < need_recv:
            raise ValueError(f"buffers of {send.nbytes} and {recv.nbytes} bytes; the layout needs "
                             f"{need_send} and {need_recv}")
        _check(_exchange_execute(self._handle, sp, scp, sdp, rp, rcp, rdp))

    @property
    def name(self):
        return _exchange_name(self._handle).decode()

    @property
    def counters(self):
        return _counters(_exchange_counters, self._handle)

    @property
    def scratch_bytes(self):
        """Bytes the exchange holds on this rank now (grown to the largest call so far)."""
        return _exchange_scratch(self._handle)



def _box(b, name):
    """((lo0, lo1, lo2), (hi0, hi1, hi2)) of int64 indices as the C API's box."""
    try:
        (lo, hi) = b
        if len(lo) != 3 or len(hi) != 3:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be ((lo0, lo1, lo2), (hi0, hi1, hi2)), not {b!r}") from None
    box = _Box()
    for d in range(3):
        box.lo[d] = _integer(lo[d], f"{name} lo[{d}]", -2**63, _INT64_MAX)
        box.hi[d] = _integer(hi[d], f"{name} hi[{d}]", -2**63, _INT64_MAX)
    return box


def _shape(b):
    (lo, hi) = b
    return tuple(max(0, int(h) - int(l)) for l, h in zip(lo, hi))


def _count(b):
    n = 1
    for e in _shape(b):
        n *= e
    return n


class Redistribution(_Handle):
    """A 3D array moved between two box decompositions (slabs, pencils) through any backend.
    Collective: every rank gives its input and output boxes ((lo0, lo1, lo2), (hi0, hi1, hi2));
    dtype (or an element size in bytes) of the elements."""

    def __init__(self, comm, in_box, out_box, dtype, backend="auto"):
        super().__init__(_redist_free)
        self.in_box, self.out_box = in_box, out_box
        c = _mpi4py_comm(comm)

        def convert():
            if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, (bool, np.bool_)):
                itemsize = _integer(dtype, "element size", 1)
            else:
                dt = np.dtype(dtype)
                if dt.hasobject:
                    raise TypeError(f"dtype {dt}: a2a moves the bytes of numeric arrays")
                itemsize = dt.itemsize
            return itemsize, _box(in_box, "in_box"), _box(out_box, "out_box"), _spec(backend)

        self.itemsize, cin, cout, spec_b = _agreed(c, convert)
        _check(_redist_create(c.py2f(), ctypes.byref(cin), ctypes.byref(cout), self.itemsize,
                              spec_b, ctypes.byref(self._handle)))
        self._made_on(c)

    def _check_array(self, a, box, name):
        """An array over box: its bytes, and its shape where it has more than one axis (a
        transposed copy of the right size is refused, not misread)."""
        want = _count(box) * self.itemsize
        if a.nbytes != want:
            raise ValueError(f"{name} has {a.nbytes} bytes; its box {_shape(box)} of "
                             f"{self.itemsize}-byte elements holds {want}")
        if a.ndim > 1 and a.shape[:3] != _shape(box):
            raise ValueError(f"{name} has shape {a.shape}; its box is {_shape(box)} (C order)")

    def execute(self, data_in, data_out):
        """Collective: data_in holds the input box (C order), data_out receives the output box.
        Arrays are flat or shaped as their boxes."""
        a, ap = _buffer(data_in, "data_in")
        b, bp = _buffer(data_out, "data_out", writable=True)
        self._check_array(a, self.in_box, "data_in")
        self._check_array(b, self.out_box, "data_out")
        _check(_redist_execute(self._handle, ap, bp))

    @property
    def backend(self):
        return _redist_backend(self._handle).decode()

    @property
    def uniform(self):
        return bool(_redist_uniform(self._handle))

    def share(self, other):
        """Collective: for redistributions that run one after another, this one packs and
        receives into other's buffers (and, single-copy on the same ranks, its window)."""
        if not isinstance(other, Redistribution):
            raise TypeError(f"share takes a Redistribution, not {type(other).__name__}")
        _check(_redist_share(self._handle, other._handle))

    @staticmethod
    def memory_bytes(redistributions):
        """What these redistributions hold together on this rank besides your arrays, memory
        they share counted once (pass all that share)."""
        rs = list(redistributions)
        if not all(isinstance(r, Redistribution) for r in rs):
            raise TypeError("memory_bytes takes Redistributions")
        handles = (_vp * max(len(rs), 1))(*[r._handle for r in rs])
        return _redist_memory(handles, len(rs))



def list_algorithms():
    """The registry: one dict per algorithm (name, kinds, summary, source, cost)."""
    out = []
    for i in range(_algorithm_count()):
        name, summary, source, cost = _cp(), _cp(), _cp(), _cp()
        kinds = ctypes.c_uint()
        _check(_algorithm_info(i, ctypes.byref(name), ctypes.byref(kinds), ctypes.byref(summary),
                               ctypes.byref(source), ctypes.byref(cost)))
        out.append({"name": name.value.decode(),
                    "kinds": [k for k, bit in (("uniform", 1), ("vector", 2)) if kinds.value & bit],
                    "summary": summary.value.decode(), "source": source.value.decode(),
                    "cost": cost.value.decode()})
    return out


def model(procs, radix):
    """The radix-r Bruck family's cost (Propositions 1-4): digits w, rounds K, blocks D."""
    procs = _integer(procs, "procs", 1, 2**64 - 1)
    radix = _integer(radix, "radix", 2, 2**64 - 1)
    w, k, d = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
    _check(_model(procs, radix, ctypes.byref(w), ctypes.byref(k), ctypes.byref(d)))
    return {"digits": w.value, "rounds": k.value, "blocks": d.value}


def block_start(n, parts, index):
    """The first index of part `index` of n indices split into `parts` (balanced)."""
    n = _integer(n, "n")
    parts = _integer(parts, "parts", 1, 2**31 - 1)
    index = _integer(index, "index", 0, parts)
    start = int(_block_start(n, parts, index))
    if start < 0:
        _check(2)
    return start


# The FFT library (a2a/fft.h): BoxFft, data in your boxes with a kind per axis.
KINDS = ("dft", "dct1", "dct2", "dct3", "dct4", "dst1", "dst2", "dst3", "dst4", "none")
_SCALINGS = {"none": 0, "full": 1, "symmetric": 2}
# FFTW's planner flags (fftw3.h).
_PLANNERS = {"estimate": 1 << 6, "measure": 0, "patient": 1 << 5, "exhaustive": 1 << 3,
             "wisdom-only": 1 << 21}


class _FftOptions(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int64 * 3), ("in_box", _Box), ("out_box", _Box),
                ("in_order", ctypes.c_int * 3), ("out_order", ctypes.c_int * 3),
                ("kinds", ctypes.c_int * 3), ("r2c", _c_int), ("batch", _c_int),
                ("batch_contiguous", _c_int), ("single_precision", _c_int), ("backend", _cp),
                ("fftw_flags", ctypes.c_uint), ("external_workspace", _c_int),
                ("r2c_padded", _c_int), ("local_call_checks", _c_int)]


if _flib is not None:
    _fft_create = _declare(_flib, "a2a_fft_create_f", _c_int,
                           [_c_int, ctypes.POINTER(_FftOptions), ctypes.POINTER(_vp)])
    _fft_forward = _declare(_flib, "a2a_fft_forward", _c_int, [_vp, _vp, _vp, _c_int, _vp])
    _fft_backward = _declare(_flib, "a2a_fft_backward", _c_int, [_vp, _vp, _vp, _c_int, _vp])
    _fft_describe = _declare(_flib, "a2a_fft_describe", _cp, [_vp])
    _fft_workspace = _declare(_flib, "a2a_fft_workspace_bytes", ctypes.c_size_t, [_vp])
    _fft_memory = _declare(_flib, "a2a_fft_memory_bytes", ctypes.c_size_t, [_vp])
    _fft_free = _declare(_flib, "a2a_fft_free", _c_int, [ctypes.POINTER(_vp)])
    _fft_slab = _declare(_flib, "a2a_fft_slab_box_along", _c_int,
                         [ctypes.c_int64 * 3, _c_int, _c_int, _c_int, ctypes.POINTER(_Box)])
    _fft_pencil = _declare(_flib, "a2a_fft_pencil_box", _c_int,
                           [ctypes.c_int64 * 3, _c_int, _c_int, _c_int, ctypes.POINTER(_Box)])


def _require_fft():
    if _flib is None:
        raise Error("a2a was built without FFTW: no liba2a_fft.so, so no a2a.Fft", 4)


def _grid(n):
    try:
        if len(n) != 3:
            raise ValueError
    except TypeError:
        raise ValueError(f"n must be the grid's three sizes, not {n!r}") from None
    return [_integer(v, f"n[{d}]", 1) for d, v in enumerate(n)]


def _as_box(box):
    return ((box.lo[0], box.lo[1], box.lo[2]), (box.hi[0], box.hi[1], box.hi[2]))


def slab_box(n, procs, rank, axis=0):
    """Rank `rank`'s slab of grid n over `procs` ranks, split along `axis` (1: the y-slabs of
    FFTW-MPI's transposed spectrum)."""
    _require_fft()
    b = _Box()
    _check(_fft_slab((ctypes.c_int64 * 3)(*_grid(n)), _integer(axis, "axis", 0, 2),
                     _integer(procs, "procs", 1, 2**31 - 1),
                     _integer(rank, "rank", 0, 2**31 - 1), ctypes.byref(b)))
    return _as_box(b)


def pencil_box(n, axis, procs, rank):
    """Rank `rank`'s pencil of grid n, whole along `axis`, on the most square process grid."""
    _require_fft()
    b = _Box()
    _check(_fft_pencil((ctypes.c_int64 * 3)(*_grid(n)), _integer(axis, "axis", 0, 2),
                       _integer(procs, "procs", 1, 2**31 - 1),
                       _integer(rank, "rank", 0, 2**31 - 1), ctypes.byref(b)))
    return _as_box(b)


class Fft(_Handle):
    """A distributed 3D transform of data in your boxes (a2a::fft::BoxFft). Collective: every
    rank gives the grid n, the box it holds (in_box) and the box it wants back (out_box, over
    n0 x n1 x (n2 // 2 + 1) with r2c), a kind per axis (KINDS: dft, dct1..dct4, dst1..dst4,
    none; FFTW's and SciPy's definitions, unnormalized), r2c (real input, axis 2
    real-to-complex), a batch of fields ("interleaved": shape box + (batch,); "contiguous":
    (batch,) + box), precision "double" or "float", a backend spec, FFTW's planner, and the
    order of each side's axes in memory (in_order, out_order, slowest first: (1, 0, 2) is
    [y][x][z], FFTW-MPI's transposed layout; the array's shape follows it); r2c_padded: the
    real input in FFTW's padded rows (2 (n2 // 2 + 1) along axis 2), for an r2c in place.

    forward(a) and backward(a) take C-contiguous arrays of the side's dtype and shape (or flat
    of its size) and return the other side's, or fill `out`. Errors while planning are the same
    on every rank, and so are a call's (agreed with the other ranks first), unless
    agree_calls=False: then each rank checks its own arguments, without the collectives."""

    def __init__(self, comm, n, in_box, out_box, kinds=("dft", "dft", "dft"), r2c=False, batch=1,
                 batch_layout="interleaved", precision="double", backend="auto",
                 planner="estimate", in_order=(0, 1, 2), out_order=(0, 1, 2),
                 r2c_padded=False, agree_calls=True):
        _require_fft()
        super().__init__(_fft_free)
        c = self._comm = _mpi4py_comm(comm)

        def convert():
            o = _FftOptions()
            for d, v in enumerate(_grid(n)):
                o.n[d] = v
            o.in_box, o.out_box = _box(in_box, "in_box"), _box(out_box, "out_box")
            for name, order, field in (("in_order", in_order, o.in_order),
                                       ("out_order", out_order, o.out_order)):
                if sorted(int(a) for a in order) != [0, 1, 2]:
                    raise ValueError(f"{name} must be a permutation of (0, 1, 2), not {order!r}")
                for d in range(3):
                    field[d] = int(order[d])
            if isinstance(kinds, str) or len(kinds) != 3:
                raise ValueError(f"kinds must be three of {KINDS}, not {kinds!r}")
            for d, k in enumerate(kinds):
                if k not in KINDS:
                    raise ValueError(f"kinds[{d}] = {k!r} is not one of {KINDS}")
                o.kinds[d] = KINDS.index(k)
            o.r2c = 1 if r2c else 0
            o.r2c_padded = 1 if r2c_padded else 0
            o.batch = _integer(batch, "batch", 1, 2**31 - 1)
            if batch_layout not in ("interleaved", "contiguous"):
                raise ValueError(f"batch_layout must be 'interleaved' or 'contiguous', not "
                                 f"{batch_layout!r}")
            o.batch_contiguous = 1 if batch_layout == "contiguous" else 0
            if precision not in ("double", "float"):
                raise ValueError(f"precision must be 'double' or 'float', not {precision!r}")
            o.single_precision = 1 if precision == "float" else 0
            o.backend = _spec(backend)
            if planner not in _PLANNERS:
                raise ValueError(f"planner must be one of {tuple(_PLANNERS)}, not {planner!r}")
            o.fftw_flags = _PLANNERS[planner]
            o.local_call_checks = 0 if agree_calls else 1
            return o

        self._options = _agreed(c, convert)
        self._agree_calls = bool(agree_calls)
        _check(_fft_create(c.py2f(), ctypes.byref(self._options), ctypes.byref(self._handle)))
        self._made_on(c)
        any_dft = "dft" in kinds
        real, cplx = ((np.float32, np.complex64) if precision == "float"
                      else (np.float64, np.complex128))
        self.input_dtype = np.dtype(cplx if any_dft and not r2c else real)
        self.output_dtype = np.dtype(cplx if any_dft else real)
        self.batch = self._options.batch

        def shape(box, order, padded=False):
            s = _shape(box)
            if padded and _count(box):  # FFTW's padded rows along axis 2
                s = (s[0], s[1], 2 * (int(n[2]) // 2 + 1))
            s = tuple(s[a] for a in order)
            if self.batch == 1:
                return s
            return s + (self.batch,) if batch_layout == "interleaved" else (self.batch,) + s

        self.input_shape = shape(in_box, in_order, r2c_padded)
        self.output_shape = shape(out_box, out_order)

    def _run(self, function, a, out, dtype_in, shape_in, dtype_out, shape_out, scaling):
        def convert():
            if scaling not in _SCALINGS:
                raise ValueError(f"scaling must be one of {tuple(_SCALINGS)}, not {scaling!r}")
            x = np.asarray(a) if not isinstance(a, np.ndarray) else a
            if x.dtype != dtype_in:
                raise TypeError(f"the input has dtype {x.dtype}; this transform takes {dtype_in}")
            if x.size != int(np.prod(shape_in)) or (x.ndim > 1 and x.shape != shape_in):
                raise ValueError(f"the input has shape {x.shape}; this rank's side is {shape_in}")
            y = np.empty(shape_out, dtype=dtype_out) if out is None else out
            if not isinstance(y, np.ndarray) or y.dtype != dtype_out:
                raise TypeError(f"out must be a NumPy array of dtype {dtype_out}")
            if y.size != int(np.prod(shape_out)) or (y.ndim > 1 and y.shape != shape_out):
                raise ValueError(f"out has shape {y.shape}; this rank's side is {shape_out}")
            return (x, _buffer(x, "the input")[1], y, _buffer(y, "out", writable=True)[1])

        # comm.Free() nulls the communicator object, on every rank (it is collective): said
        # here as the library says it, since the agreement below cannot run on it.
        from mpi4py import MPI
        if self._comm == MPI.COMM_NULL:
            raise Error("a2a.Fft: the communicator it was made on has been freed (comm.Free()); "
                        "make it again on a live communicator", 2)
        # Agreed (one small allgather per call): a bad array on one rank raises on every rank
        # instead of leaving the others in the transform's exchanges; with agree_calls=False
        # each rank checks its own.
        x, ap, y, bp = _agreed(self._comm, convert) if self._agree_calls else convert()
        _check(function(self._handle, ap, bp, _SCALINGS[scaling], None))
        return y

    def forward(self, a, out=None, scaling="none"):
        """Collective: the forward transform of a (this rank's input box); returns the output
        box's array (or fills out)."""
        return self._run(_fft_forward, a, out, self.input_dtype, self.input_shape,
                         self.output_dtype, self.output_shape, scaling)

    def backward(self, a, out=None, scaling="full"):
        """Collective: the inverse kinds from the output box back to the input box, scaled by
        1/N by default (scaling: "none", "full", "symmetric")."""
        return self._run(_fft_backward, a, out, self.output_dtype, self.output_shape,
                         self.input_dtype, self.input_shape, scaling)

    @property
    def description(self):
        """The steps of the plan and the backend each reshape chose."""
        return _fft_describe(self._handle).decode()

    @property
    def workspace_bytes(self):
        return int(_fft_workspace(self._handle))

    @property
    def memory_bytes(self):
        """Bytes the plan holds on this rank besides your arrays: its work arrays, the
        exchanges' buffers, their backends' scratch and shared-memory windows."""
        return int(_fft_memory(self._handle))
