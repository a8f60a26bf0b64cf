// The interface of a real-to-real transform of every line along one axis of a box, run in place
// through a complex scratch array: what BoxFft holds for the kinds it does not leave to FFTW's
// own r2r plans (paired_trig.hpp: types II and III; half_length_dct4.hpp: type IV).
#pragma once

#include <complex>

namespace a2a::fft {

template <typename Real>
struct TrigLines {
  virtual ~TrigLines() = default;
  // Transforms every line of x in place, through `scratch`.
  virtual void run(Real* x, std::complex<Real>* scratch) const = 0;
  // False where FFTW made no plan (FFTW_WISDOM_ONLY without the wisdom).
  virtual bool planned() const = 0;
};

}  // namespace a2a::fft
