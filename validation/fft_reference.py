"""Reference transforms for the BoxFft tests (validation/test_box_fft.cpp), computed by NumPy and
SciPy (not by FFTW, not by a2a) and written with h5py:
    fft_reference.py OUT.h5
One group per case, with attributes n (the grid), kinds (one per axis: dft, dct1..dct4,
dst1..dst4, none), r2c (0/1), batch, and two datasets: `input` of shape (n0, n1, n2, batch) and
`forward` (the forward transform, shape (s0, s1, s2, batch), s2 = n2 // 2 + 1 with r2c), each
with a trailing axis of 2 (real, imaginary) where complex. The batch index is the fastest, as
BoxFft's interleaved batches. Unnormalized, as FFTW's: numpy.fft.fftn/rfftn and
scipy.fft.dct/dst with norm=None."""
import sys

import h5py
import numpy as np
import scipy.fft

# name: (n, kinds, r2c, batch). Odd and prime sizes, every real kind at least once, DFT axes
# mixed with real ones and with none, batches of 1, 3 and 5.
CASES = {
    "c2c": ((5, 7, 6), ("dft", "dft", "dft"), 0, 1),
    "c2c_batch5": ((3, 4, 5), ("dft", "dft", "dft"), 0, 5),
    "r2c_batch3": ((6, 5, 9), ("dft", "dft", "dft"), 1, 3),
    "r2c_prime": ((7, 3, 11), ("dft", "dft", "dft"), 1, 1),
    "r2r_dct2_dst1_dct4": ((5, 6, 7), ("dct2", "dst1", "dct4"), 0, 1),
    "r2r_dct3_dst2_dst4_batch3": ((4, 7, 5), ("dct3", "dst2", "dst4"), 0, 3),
    "mixed_dct1_dft_dst3": ((4, 6, 5), ("dct1", "dft", "dst3"), 0, 3),
    "mixed_r2c_dct2": ((5, 4, 8), ("dct2", "dft", "dft"), 1, 1),
    "none_y": ((6, 5, 4), ("dft", "none", "dft"), 0, 1),
    "r2r_none_z": ((5, 4, 3), ("dst2", "dct1", "none"), 0, 1),
    "r2r_dct3_dst3_dct2": ((7, 5, 9), ("dct3", "dst3", "dct2"), 0, 1),
    "r2r_dct2_dct2_dst2": ((3, 8, 5), ("dct2", "dct2", "dst2"), 0, 1),
    "r2r_dct4_dst4_batch2": ((6, 4, 5), ("dct4", "dst4", "dst2"), 0, 2),
    "mixed_dft_dst4_dct4": ((5, 6, 8), ("dft", "dst4", "dct4"), 0, 1),
    # r2c alone: backward's first transform is the c2r (FFTW's c2r may overwrite its input).
    "r2c_z_only": ((4, 3, 160), ("none", "none", "dft"), 1, 2),
    # Fields of whole multiples of 64 bytes on slabs and pencils: batches run field by field.
    "r2c_batch3_even": ((8, 8, 8), ("dft", "dft", "dft"), 1, 3),
    "r2r_dct2_dst4_dct3_batch3_even": ((8, 8, 8), ("dct2", "dst4", "dct3"), 0, 3),
    "c2c_batch5_even": ((8, 4, 8), ("dft", "dft", "dft"), 0, 5),
    # A contiguous batch whose slab exchanges send more than 4 KiB of a field to a peer at
    # P <= 5: its fields run one at a time, each on the tuned path.
    "c2c_batch3_slabs": ((24, 24, 16), ("dft", "dft", "dft"), 0, 3),
    # DFT lines 256 or more values (a multiple of 4 KiB) apart along axis 0 or 1 on one rank's
    # whole grid: through panels of columns under FFTW's estimate (BoxFft::make_columns).
    "c2c_columns_x": ((5, 32, 16), ("dft", "dft", "dft"), 0, 1),
    "c2c_columns_y": ((3, 5, 512), ("dft", "dft", "dft"), 0, 1),
    "c2c_columns_batch2": ((5, 8, 32), ("dft", "dft", "dft"), 0, 2),
    "r2c_columns": ((4, 16, 30), ("dft", "dft", "dft"), 1, 1),
    # DCT-I and DST-I of odd length from 9 on: their even and odd outputs through DFTs of the
    # halves (SplitTrig1), on real lines paired along every axis and on a complex batch's parts.
    "r2r_dct1_split": ((9, 17, 11), ("dct1", "dct1", "dct1"), 0, 1),
    "mixed_dct1_split_dft_batch2": ((11, 6, 33), ("dct1", "dft", "dct1"), 0, 2),
    "r2r_dst1_split": ((15, 9, 31), ("dst1", "dst1", "dst1"), 0, 1),
    "mixed_dst1_split_dft_batch2": ((9, 6, 15), ("dst1", "dft", "dst1"), 0, 2),
    # Boxes whose line transforms' scratch would pass 256 KiB on few ranks: they run in panels
    # (LinePanels): along axis 0 in panels of neighbouring lines, along 1 and 2 in chunks of
    # planes.
    "r2r_panels": ((65, 33, 33), ("dct1", "dct2", "dst1"), 0, 1),
}


def transform(data, kinds, r2c):
    """The forward transform over axes 0..2 of data (axis 3: the batch)."""
    out = data
    if r2c:  # real-to-complex along axis 2 first, as FFTW's r2c
        out = np.fft.rfft(out, axis=2)
    for axis, kind in enumerate(kinds):
        if kind == "none" or (r2c and axis == 2):
            continue
        if kind == "dft":
            out = np.fft.fft(out, axis=axis)
        elif kind.startswith("dct"):
            out = scipy.fft.dct(out, type=int(kind[3]), axis=axis)
        else:
            out = scipy.fft.dst(out, type=int(kind[3]), axis=axis)
    return out


def stored(array):
    array = np.ascontiguousarray(array)
    if np.iscomplexobj(array):
        return np.stack([array.real, array.imag], axis=-1)
    return array


def main():
    rng = np.random.default_rng(20261127)
    with h5py.File(sys.argv[1], "w") as f:
        for name, (n, kinds, r2c, batch) in CASES.items():
            shape = tuple(n) + (batch,)
            data = rng.standard_normal(shape)
            if not r2c and "dft" in kinds:
                data = data + 1j * rng.standard_normal(shape)
            group = f.create_group(name)
            group.attrs["n"] = np.array(n, dtype=np.int64)
            group.attrs["kinds"] = " ".join(kinds)
            group.attrs["r2c"] = r2c
            group.attrs["batch"] = batch
            group["input"] = stored(data)
            group["forward"] = stored(transform(data, kinds, r2c))
    print(f"fft_reference: {len(CASES)} cases written")


main()
