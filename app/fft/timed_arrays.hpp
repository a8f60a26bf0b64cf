// The arrays a 3D FFT is checked and timed on, shared by `a2a fft` and the decks' [[fft]]:
// the input (complex, and its real parts for r2c), the spectrum and the round trip, all 64-byte
// aligned as fftw_malloc's are (FFTW-MPI's baseline has those). In place (c2c) the transforms
// run on one more array, as FFTW-MPI's baseline does; the check copies the spectrum and the
// round trip out of it.
#pragma once

#include <algorithm>
#include <array>
#include <complex>
#include <cstdint>

#include "a2a/fft.hpp"
#include "fft/reference.hpp"

namespace a2a::fft {

template <typename Real>
struct TimedArrays {
  using Complex = std::complex<Real>;
  AlignedVector<Complex> input, spectrum, back;
  AlignedVector<Real> real_input, real_back;  // r2c
  AlignedVector<Complex> array;               // in place: input, then spectrum, then back

  TimedArrays(const Fft3d<Real>& fft, const Options& o, bool planewave, bool in_place)
      : input(fill<Real, AlignedVector<Complex>>(o.r2c ? fft.real_box() : fft.input_box(), o.n,
                                                 planewave)),
        spectrum(static_cast<std::size_t>(fft.output_box().count())),
        back(input.size()),
        real_input(real_parts<AlignedVector<Complex>, Real, AlignedVector<Real>>(input)),
        real_back(o.r2c ? input.size() : 0),
        array(in_place ? std::max(input.size(), spectrum.size()) : 0),
        r2c_(o.r2c),
        in_place_(in_place) {}

  void forward(Fft3d<Real>& fft) {
    if (r2c_)
      fft.forward(real_input.data(), spectrum.data());
    else if (in_place_)
      fft.forward(array.data(), array.data());
    else
      fft.forward(input.data(), spectrum.data());
  }
  void backward(Fft3d<Real>& fft) {
    if (r2c_)
      fft.backward(spectrum.data(), real_back.data());
    else if (in_place_)
      fft.backward(array.data(), array.data());
    else
      fft.backward(spectrum.data(), back.data());
  }
  // One forward and one backward from the input as it is now (after a file was read into it),
  // leaving the spectrum and the round trip where the checks read them.
  void check_pass(Fft3d<Real>& fft) {
    if (in_place_) std::copy(input.begin(), input.end(), array.begin());
    forward(fft);
    if (in_place_) std::copy_n(array.begin(), spectrum.size(), spectrum.begin());
    backward(fft);
    if (in_place_) std::copy_n(array.begin(), back.size(), back.begin());
  }

 private:
  bool r2c_, in_place_;
};

}  // namespace a2a::fft
