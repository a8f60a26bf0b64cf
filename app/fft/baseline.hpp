// FFTW's own MPI transforms on the same input as a2a's, the baselines of a2a fft, a2a fft1d and
// the decks' FFT experiments.
//
// 3D (FftwMpi): x-slabs of FFTW's choosing; c2c, or r2c/c2r in place with FFTW's padded real
// layout (rows of 2 (n2/2 + 1) reals). Two forms (FFTW's manual, "Transposed distributions"):
// natural, whose spectrum is x-slabs like its input (FFTW-MPI transposes back at the end of the
// forward and again at the start of the backward), and transposed (FFTW_MPI_TRANSPOSED_OUT /
// _IN: the spectrum stays y-slabs, [y][x][z] locally, one global transpose per direction
// fewer). a2a's forward also leaves its spectrum transposed, so the transposed form is the
// like-for-like comparison and the headline.
//
// 1D (FftwMpi1d): FFTW's MPI 1D transform (its own distribution, in place) on the six-step
// FFT's points.
//
// Both need libfftw3-mpi built for this MPI (Debian: Open MPI only); without it (the MPICH and
// SimGrid builds) their constructors throw kNoFftwMpi.
#pragma once

#include <fftw3.h>
#include <mpi.h>

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "a2a/fft/aligned.hpp"
#include "a2a/transpose.hpp"

namespace a2a::fft {

inline constexpr const char* kNoFftwMpi =
    "this build has no FFTW-MPI (A2A_WITH_FFTW_MPI=OFF: Debian builds it for Open MPI only), "
    "so --baseline fftw-mpi cannot run";

// Two forms (FFTW's manual, "FFTW MPI Performance Tips"): natural order, like a2a's six-step
// output (like for like, the headline), and FFTW_MPI_SCRAMBLED_OUT, whose output is in an order
// FFTW leaves unspecified and which skips FFTW's last transpose: FFTW-MPI's fastest form. The
// scrambled spectrum cannot be compared element by element: it is checked by its round trip
// (the FFTW_MPI_SCRAMBLED_IN backward plan back to the natural input) and by its energy
// against a2a's spectrum (Parseval: the sum of |X|^2 does not depend on the order).
// Throws a2a::Error, on every rank, where FFTW-MPI cannot plan N on P ranks (it needs N
// divisible by P, ideally by P^2) or the build has no FFTW-MPI.
class FftwMpi1d {
 public:
  FftwMpi1d(MPI_Comm comm, std::int64_t points, unsigned flags, bool scrambled = false);
  FftwMpi1d(const FftwMpi1d&) = delete;
  FftwMpi1d& operator=(const FftwMpi1d&) = delete;
  ~FftwMpi1d();
  // "fftw-mpi" (natural order) or "fftw-mpi-scrambled".
  std::string name() const;
  bool scrambled() const { return scrambled_; }
  void forward();
  // This rank's block of the spectrum (after forward()), natural or scrambled order.
  std::vector<std::complex<double>> output() const;
  // Scrambled form: after forward(), the backward transform back to natural order and its
  // largest relative difference from N times the input (collective; call once, last).
  double roundtrip_error(MPI_Comm comm);

 private:
  void release();
  std::int64_t points_;
  bool scrambled_;
  fftw_plan plan_ = nullptr, backward_ = nullptr;
  AlignedVector<std::complex<double>> storage_;  // FFTW-MPI's local_size
  fftw_complex* data_ = nullptr;                 // storage_'s
  std::ptrdiff_t inputs_ = 0, first_input_ = 0, outputs_ = 0;
};

// Both 1D forms, natural (the headline) first.
std::vector<std::unique_ptr<FftwMpi1d>> fftw_mpi_1d_baselines(MPI_Comm comm, std::int64_t points,
                                                              unsigned flags);

class FftwMpi {
 public:
  FftwMpi(MPI_Comm comm, const std::array<std::int64_t, 3>& n, bool r2c, unsigned flags,
          bool transposed);
  ~FftwMpi();
  FftwMpi(const FftwMpi&) = delete;
  FftwMpi& operator=(const FftwMpi&) = delete;

  // "fftw-mpi-transposed" or "fftw-mpi" (natural).
  std::string name() const;
  // The spectrum's box (n2/2 + 1 along z for r2c): x-slabs, or y-slabs when transposed.
  Box box() const;
  // The input's box (x-slabs in both forms).
  Box real_box() const;
  // This rank's spectrum in box() order, [x][y][z] (the transposed form holds it [y][x][z]).
  std::vector<std::complex<double>> spectrum() const;
  // Copies the complex input (x-slabs, as fill() makes them; for r2c its real parts) into
  // FFTW's layout (padded real rows for r2c).
  void load(const std::vector<std::complex<double>>& in);
  void forward();
  // Back to the input's layout (x-slabs in both forms), scaled by 1/N.
  void backward_normalized();

 private:
  std::array<std::int64_t, 3> n_;
  bool r2c_, transposed_;
  std::int64_t nc_;
  std::ptrdiff_t local_n0_ = 0, start_ = 0, local_n1_ = 0, start1_ = 0;
  AlignedVector<std::complex<double>> storage_;  // FFTW-MPI's local_size
  fftw_complex* data_ = nullptr;                 // storage_'s
  fftw_plan forward_ = nullptr, backward_ = nullptr;
};

// The local FFTs' floor: the transforms of one rank's share of a distributed 3D FFT, done the
// way FFTW does them fastest, with no exchange at all: FFTW's in-place plans (r2c: out of
// place, FFTW's r2c has no unpadded in-place form) on FFTW-MPI's transposed layout, the 2D
// transforms of this rank's n0/P x-planes and the 1D transforms along x of its n1/P y-planes
// ([y][x][z], unit-stride vectors), forward then backward. An FFT built on FFTW spends at least
// this on its local transforms; a2a's local FFTs against it say what its layout costs, and
// FFTW-MPI's whole time against it what FFTW-MPI's exchanges cost. Serial FFTW only (any MPI).
class LocalFloor {
 public:
  // Collective. Where FFTW made no plan on some rank (FFTW_WISDOM_ONLY, the wisdom without
  // them) the floor is unavailable on every rank, not an error.
  LocalFloor(MPI_Comm comm, const std::array<std::int64_t, 3>& n, bool r2c, unsigned flags);
  ~LocalFloor();
  LocalFloor(const LocalFloor&) = delete;
  LocalFloor& operator=(const LocalFloor&) = delete;
  bool available() const { return available_; }
  void forward_backward();

 private:
  bool available_ = false;
  AlignedVector<std::complex<double>> planes_;  // [n0/P][n1][n2c]
  AlignedVector<std::complex<double>> lines_;   // [n1/P][n0][n2c]
  AlignedVector<double> real_;                  // r2c: [n0/P][n1][n2]
  std::vector<fftw_plan> plans_;                // in execution order
};

// Both FFTW-MPI forms, the transposed (like for like, the headline) first.
std::vector<std::unique_ptr<FftwMpi>> fftw_mpi_baselines(MPI_Comm comm,
                                                         const std::array<std::int64_t, 3>& n,
                                                         bool r2c, unsigned flags);

}  // namespace a2a::fft
