// Parallel HDF5 of distributed arrays: written as x-slabs, read back as pencils (another
// decomposition), complex and real, double and float; every element must equal its closed
// form. A dataset of another shape is refused, on every rank.
#include <complex>
#include <vector>

#include "harness.hpp"
#include "io/hdf5_array.hpp"

namespace {

double value(std::int64_t i, std::int64_t j, std::int64_t k, int c) {
  return static_cast<double>(i * 1000 + j * 10 + k) + 0.25 * c;
}

template <typename T>
std::vector<T> fill(const a2a::Box& b, int components) {
  std::vector<T> v;
  for (auto i = b.lo[0]; i < b.hi[0]; ++i)
    for (auto j = b.lo[1]; j < b.hi[1]; ++j)
      for (auto k = b.lo[2]; k < b.hi[2]; ++k)
        for (int c = 0; c < components; ++c)
          v.push_back(static_cast<T>(value(i, j, k, c)));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_hdf5");
    const int P = h.procs(), me = h.rank();
    const std::array<std::int64_t, 3> n{9, 7, 5};
    const a2a::Box slab{{a2a::block_start(n[0], P, me), 0, 0},
                        {a2a::block_start(n[0], P, me + 1), n[1], n[2]}};
    // Pencils on a P x 1 grid split along y and z instead.
    const a2a::Box pencil{{0, a2a::block_start(n[1], P, me), 0},
                          {n[0], a2a::block_start(n[1], P, me + 1), n[2]}};
    const std::string path = "test_hdf5_P" + std::to_string(P) + ".h5";
    {
      a2a::io::File file(h.comm(), path, true);
      const auto complex_data = fill<double>(slab, 2);
      const auto real_data = fill<float>(slab, 1);
      a2a::io::write_box(file, "complex", n, slab, complex_data.data(), 2);
      a2a::io::write_box(file, "real", n, slab, real_data.data(), 1);
    }
    {
      a2a::io::File file(h.comm(), path, false);
      std::vector<double> complex_back(static_cast<std::size_t>(pencil.count()) * 2);
      std::vector<double> real_back(static_cast<std::size_t>(pencil.count()));
      a2a::io::read_box(file, "complex", n, pencil, complex_back.data(), 2);
      a2a::io::read_box(file, "real", n, pencil, real_back.data(), 1);
      h.expect(complex_back == fill<double>(pencil, 2), "complex array read back as pencils");
      h.expect(real_back == fill<double>(pencil, 1), "real (float) array read back as pencils");
      std::string message;
      try {
        a2a::io::read_box(file, "complex", {9, 7, 6}, pencil, complex_back.data(), 2);
      } catch (const a2a::Error& e) {
        message = e.what();
      }
      h.expect(message.find("wrong grid") != std::string::npos,
               "a wrong grid is refused: " + message);
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
