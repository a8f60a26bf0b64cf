// a2a::Redistribution: slab (x-slabs -> y-slabs on the world communicator) and pencil
// (z -> y on the row communicator, y -> x on the column communicator) redistributions for
// grids that divide evenly and grids that do not, complex double and complex float, through
// several backends (a uniform-only one where the grid divides, vector ones everywhere, and the
// single-copy shared_window, whose pack writes into the peers' memory), and several fields in
// one exchange. Every
// element of the output must equal a closed-form function of its global index; then the way
// back must restore the input.
#include <algorithm>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "a2a/transpose.hpp"
#include "harness.hpp"

namespace {

using a2a::Box;

template <typename T>
std::complex<T> value_at(std::int64_t i, std::int64_t j, std::int64_t k) {
  return {static_cast<T>(i * 10000 + j * 100 + k), static_cast<T>(-(i + 2 * j + 3 * k))};
}

template <typename T>
std::vector<std::complex<T>> fill(const Box& b) {
  std::vector<std::complex<T>> v(static_cast<std::size_t>(b.count()));
  std::size_t at = 0;
  for (auto i = b.lo[0]; i < b.hi[0]; ++i)
    for (auto j = b.lo[1]; j < b.hi[1]; ++j)
      for (auto k = b.lo[2]; k < b.hi[2]; ++k)
        v[at++] = value_at<T>(i, j, k);
  return v;
}

int ranks_of(MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  return ranks;
}

// direct_receive: the receive pieces are whole rows of the output in rank order (each
// source's block is one contiguous range of the output array), so the exchange must write
// into the output itself and the way back must send from its input itself.
template <typename T>
void check_pair(a2a::test::Harness& h, MPI_Comm comm, const Box& in, const Box& out,
                const std::string& backend, const std::string& what, bool direct_receive = false) {
  a2a::Redistribution forward(comm, in, out, sizeof(std::complex<T>), backend);
  a2a::Redistribution back(comm, out, in, sizeof(std::complex<T>), backend);
  const auto input = fill<T>(in);
  std::vector<std::complex<T>> result(static_cast<std::size_t>(out.count()));
  std::vector<std::complex<T>> again(input.size());
  for (int repeat = 0; repeat < 2; ++repeat) {
    forward.execute(input.data(), result.data());
    h.expect(result == fill<T>(out), what + " " + backend + " (" + forward.plan().label() +
                                         (forward.uniform() ? ", uniform" : ", vector") + ")");
    back.execute(result.data(), again.data());
    h.expect(again == input, what + " " + backend + ": the way back restores the input");
  }
  // Whether the backend, as resolved (`auto` may choose it), is single-copy (shared_window).
  const bool single_copy = forward.plan().direct();
  h.expect(single_copy == back.plan().direct(), what + " " + backend + ": both ways alike");
  // execute_in_window: the output where it landed, the window or `elsewhere`, equal either
  // way; in the window exactly where a single-copy backend delivers it in output order.
  {
    std::vector<std::complex<T>> elsewhere(result.size());
    const auto* at = static_cast<const std::complex<T>*>(
        forward.execute_in_window(input.data(), elsewhere.data()));
    const auto expected = fill<T>(out);
    h.expect(std::equal(expected.begin(), expected.end(), at),
             what + " " + backend + ": execute_in_window");
    const bool stays = at != elsewhere.data();
    // One rank: its one piece is the whole output, in order. (An empty box has no address to
    // tell: MPICH's window of no bytes starts at NULL, as an empty vector's data.)
    if (out.count() > 0) {
      h.expect(stays == (single_copy && (direct_receive || ranks_of(comm) == 1)),
               what + " " + backend + ": stays in the window only where it arrives in order");
    }
  }
  // execute_from_window: the way back read straight from the input window, where a
  // single-copy backend has the pieces in input order (exactly where they arrive in order).
  h.expect(back.pulls() == (single_copy && (direct_receive || ranks_of(comm) == 1)),
           what + " " + backend + ": the way back pulls only where its pieces lie in order");
  if (back.pulls()) {
    h.expect(back.input_window() == nullptr, what + " " + backend + ": no window before asked");
    back.prepare_pull();
    if (void* window = back.input_window(); window != nullptr) {
      std::copy(result.begin(), result.end(), static_cast<std::complex<T>*>(window));
    }
    std::vector<std::complex<T>> pulled(input.size());
    for (int repeat = 0; repeat < 2; ++repeat) {
      back.execute_from_window(pulled.data());
      h.expect(pulled == input, what + " " + backend + ": the way back, pulled");
    }
    // Only pulled from here on: the receive window freed, execute() through the input window.
    const std::size_t held = a2a::Redistribution::held_bytes({&back});
    back.pull_only();
    h.expect(held - a2a::Redistribution::held_bytes({&back}) >= back.recv_bytes(),
             what + " " + backend + ": pull_only frees the receive window");
    for (int repeat = 0; repeat < 2; ++repeat) {
      std::fill(pulled.begin(), pulled.end(), std::complex<T>(-1));
      back.execute(result.data(), pulled.data());
      h.expect(pulled == input, what + " " + backend + ": execute after pull_only");
    }
    a2a::test::expect_error(h, what + " " + backend + ": begin_fill after pull_only", "only pulls",
                            [&] { back.begin_fill(); });
    a2a::test::expect_error(h, what + " " + backend + ": release_pull after pull_only",
                            "only pulls", [&] { back.release_pull(); });
    // Its input window moved into the forward's receive window: held once; the two in turn,
    // the forward's output read where it landed, the way back restoring the input.
    const std::size_t apart = a2a::Redistribution::held_bytes({&forward, &back});
    h.expect(back.share_pull_area(forward), what + " " + backend + ": share_pull_area");
    // (A rank that receives nothing has no window to save.)
    const std::size_t shared = a2a::Redistribution::held_bytes({&forward, &back});
    h.expect(forward.recv_bytes() > 0 ? shared < apart : shared <= apart,
             what + " " + backend + ": the input window in the forward's, held once");
    const auto expected = fill<T>(out);
    for (int repeat = 0; repeat < 2; ++repeat) {
      std::vector<std::complex<T>> elsewhere(result.size());
      const auto* at = static_cast<const std::complex<T>*>(
          forward.execute_in_window(input.data(), elsewhere.data()));
      h.expect(std::equal(expected.begin(), expected.end(), at),
               what + " " + backend + ": the forward through the shared window");
      std::fill(pulled.begin(), pulled.end(), std::complex<T>(-1));
      back.execute(result.data(), pulled.data());
      h.expect(pulled == input, what + " " + backend + ": the way back through it");
    }
  }
  if (single_copy) {
    // Single copy: the pack writes into the peers' memory, whatever the layout.
    h.expect(forward.plan().direct() && !forward.packs_in_place() && !forward.unpacks_in_place(),
             what + " " + backend + ": packed straight into the peers' windows");
  } else if (direct_receive) {
    h.expect(forward.unpacks_in_place() && back.packs_in_place(),
             what + " " + backend + ": no unpack there, no pack on the way back");
  }
  // The same array as input and output (equal counts): where both sides are in place, the
  // input must be packed rather than let the exchange read and write the same memory.
  if (in.count() == out.count()) {
    std::vector<std::complex<T>> both = input;
    forward.execute(both.data(), both.data());
    h.expect(both == fill<T>(out), what + " " + backend + ": in == out");
    back.execute(both.data(), both.data());
    h.expect(both == input, what + " " + backend + ": in == out, the way back");
  }
}

}  // namespace

// A chain of redistributions (a -> b -> c and back) run one after another on one
// ExchangeBuffers (share_buffers): the same data as on their own buffers, and the shared areas
// no larger than their buffers together nor smaller than the largest one's. b -> c packs and
// unpacks (both areas), the others one side only.
void check_shared(a2a::test::Harness& h, MPI_Comm comm, const Box& a, const Box& b, const Box& c,
                  const std::string& backend, const std::string& what) {
  using C = std::complex<double>;
  a2a::Redistribution ab(comm, a, b, sizeof(C), backend), bc(comm, b, c, sizeof(C), backend);
  a2a::Redistribution cb(comm, c, b, sizeof(C), backend), ba(comm, b, a, sizeof(C), backend);
  a2a::Redistribution* chain[4] = {&ab, &bc, &cb, &ba};
  std::size_t own = 0, largest = 0;
  for (const auto* r : chain) {
    own += r->buffer_bytes();
    largest = std::max(largest, r->buffer_bytes());
  }
  const auto shared = std::make_shared<a2a::ExchangeBuffers>();
  for (auto* r : chain)
    r->share_buffers(shared);
  const std::size_t together = shared->areas[0].size() + shared->areas[1].size();
  h.expect(ba.buffer_bytes() == together && together <= own && together >= largest,
           what + " " + backend + ": shared buffers of " + std::to_string(together) +
               " bytes, their own " + std::to_string(own) + " together");
  // And one receive window for the four, where single-copy: held once, as large as the most
  // any of them receives.
  const std::size_t held_alone = a2a::Redistribution::held_bytes({&ab, &bc, &cb, &ba});
  std::size_t largest_recv = 0;
  for (auto* r : chain) {
    r->share_window(ab);
    largest_recv = std::max(largest_recv, r->recv_bytes());
  }
  const std::size_t held = a2a::Redistribution::held_bytes({&ab, &bc, &cb, &ba});
  if (ab.direct()) {
    h.expect(held < held_alone && held >= largest_recv,
             what + " " + backend + ": one window held (" + std::to_string(held) + " bytes, " +
                 std::to_string(held_alone) + " apart)");
  } else {
    h.expect(held == held_alone, what + " " + backend + ": nothing to share");
  }
  if (!ab.direct()) {  // in flight, its buffers may not move: refused, not moved under it
    const auto input_a = fill<double>(a);
    std::vector<C> out_b(static_cast<std::size_t>(b.count()));
    ab.start(input_a.data(), out_b.data());
    a2a::test::expect_error(h, what + " " + backend + ": share_buffers in flight",
                            "between start() and finish()", [&] { ab.share_buffers(shared); });
    a2a::test::expect_error(h, what + " " + backend + ": share_with one in flight",
                            "between start() and finish()", [&] { bc.share_with(ab); });
    ab.finish();
    h.expect(out_b == fill<double>(b), what + " " + backend + ": the exchange in flight, intact");
  }
  const auto input = fill<double>(a);
  std::vector<C> at_b(static_cast<std::size_t>(b.count()));
  std::vector<C> at_c(static_cast<std::size_t>(c.count()));
  std::vector<C> back_b(at_b.size()), back_a(input.size());
  for (int repeat = 0; repeat < 2; ++repeat) {
    ab.execute(input.data(), at_b.data());
    bc.execute(at_b.data(), at_c.data());
    h.expect(at_c == fill<double>(c), what + " " + backend + ", shared buffers: a -> b -> c");
    cb.execute(at_c.data(), back_b.data());
    h.expect(back_b == fill<double>(b), what + " " + backend + ", shared buffers: c -> b");
    ba.execute(back_b.data(), back_a.data());
    h.expect(back_a == input, what + " " + backend + ", shared buffers: back to a");
  }
}

// Several fields in one exchange: `fields` arrays one after another on each side, field f's
// values the closed form plus f * 10^7 (so a value in the wrong field shows); one exchange of
// fields times the bytes of one field's, and the way back.
void check_fields(a2a::test::Harness& h, MPI_Comm comm, const Box& in, const Box& out,
                  std::size_t fields, const std::string& backend, const std::string& what) {
  using C = std::complex<double>;
  a2a::Redistribution one(comm, in, out, sizeof(C), backend);
  a2a::Redistribution forward(comm, in, out, sizeof(C), fields, backend);
  a2a::Redistribution back(comm, out, in, sizeof(C), fields, backend);
  auto all_fields = [&](const Box& b) {
    std::vector<C> v;
    for (std::size_t f = 0; f < fields; ++f)
      for (C x : fill<double>(b))
        v.push_back(x + C(1e7 * static_cast<double>(f), 0));
    return v;
  };
  const auto input = all_fields(in);
  std::vector<C> result(static_cast<std::size_t>(out.count()) * fields), again(input.size());
  for (int repeat = 0; repeat < 2; ++repeat) {
    forward.execute(input.data(), result.data());
    h.expect(result == all_fields(out), what + " " + backend + ", " + std::to_string(fields) +
                                            " fields (" + forward.plan().label() + ")");
    back.execute(result.data(), again.data());
    h.expect(again == input, what + " " + backend + ", " + std::to_string(fields) +
                                 " fields: the way back restores the input");
  }
  h.expect(forward.send_bytes() == fields * one.send_bytes() || forward.plan().direct(),
           what + " " + backend + ": one exchange of every field's bytes");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    a2a::test::Harness h("test_transpose");
    const int P = h.procs(), me = h.rank();
    // P x P x 5: one x-row and one y-row per rank, so both sides of the slab exchange are in
    // place (the arrays are the buffers) and in == out needs the fallback.
    const std::vector<std::array<std::int64_t, 3>> grids = {
        {8, 8, 8}, {17, 13, 11}, {30, 21, 17}, {P, P, 5}};
    for (const auto& n : grids) {
      const std::string grid =
          std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
      const bool divisible_slab = n[0] % P == 0 && n[1] % P == 0;
      std::vector<std::string> backends = {"auto", "pairwise", "sloav", "tra_v:r=2",
                                           "shared_window"};
      if (divisible_slab) backends.push_back("tra");
      // Slabs: x split over P, then y split over P.
      Box xslab{{a2a::block_start(n[0], P, me), 0, 0},
                {a2a::block_start(n[0], P, me + 1), n[1], n[2]}};
      Box yslab{{0, a2a::block_start(n[1], P, me), 0},
                {n[0], a2a::block_start(n[1], P, me + 1), n[2]}};
      for (const auto& b : backends) {
        if (b == "tra" && !divisible_slab) continue;
        check_pair<double>(h, h.comm(), xslab, yslab, b, grid + " slab x->y (double)", true);
      }
      check_pair<float>(h, h.comm(), xslab, yslab, "auto", grid + " slab x->y (float)", true);
      for (const std::string b : {"auto", "sloav", "shared_window"})
        check_fields(h, h.comm(), xslab, yslab, 3, b, grid + " slab x->y");
      const Box zslab{{0, 0, a2a::block_start(n[2], P, me)},
                      {n[0], n[1], a2a::block_start(n[2], P, me + 1)}};
      for (const std::string b : {"pairwise", "tra_v:r=2", "mpi", "shared_window"})
        check_shared(h, h.comm(), xslab, yslab, zslab, b, grid + " slabs x->y->z");

      // Pencils on every P1 x P2 grid: z-pencils -> y-pencils in the row (same r1),
      // y-pencils -> x-pencils in the column (same r2).
      for (int p1 = 1; p1 <= P; ++p1) {
        if (P % p1 != 0) continue;
        const int p2 = P / p1, r1 = me / p2, r2 = me % p2;
        MPI_Comm row, col;
        MPI_Comm_split(h.comm(), r1, r2, &row);
        MPI_Comm_split(h.comm(), r2, r1, &col);
        const auto x = [&](int parts, int i) {
          return std::pair{a2a::block_start(n[0], parts, i), a2a::block_start(n[0], parts, i + 1)};
        };
        const auto y = [&](int parts, int i) {
          return std::pair{a2a::block_start(n[1], parts, i), a2a::block_start(n[1], parts, i + 1)};
        };
        const auto z = [&](int parts, int i) {
          return std::pair{a2a::block_start(n[2], parts, i), a2a::block_start(n[2], parts, i + 1)};
        };
        const Box zpen{{x(p1, r1).first, y(p2, r2).first, 0},
                       {x(p1, r1).second, y(p2, r2).second, n[2]}};
        const Box ypen{{x(p1, r1).first, 0, z(p2, r2).first},
                       {x(p1, r1).second, n[1], z(p2, r2).second}};
        const Box xpen{{0, y(p1, r1).first, z(p2, r2).first},
                       {n[0], y(p1, r1).second, z(p2, r2).second}};
        const std::string pg = " pencils " + std::to_string(p1) + "x" + std::to_string(p2);
        for (const std::string b : {"auto", "sloav", "random_sendrecv", "shared_window"}) {
          check_pair<double>(h, row, zpen, ypen, b, grid + pg + " z->y (row)");
          check_pair<double>(h, col, ypen, xpen, b, grid + pg + " y->x (column)", true);
        }
        check_pair<float>(h, row, zpen, ypen, "pairwise", grid + pg + " z->y (row, float)");
        check_fields(h, col, ypen, xpen, 2, "pairwise", grid + pg + " y->x (column)");
        MPI_Comm_free(&row);
        MPI_Comm_free(&col);
      }
    }
    // The six-step FFT's 2D transpose: rows x cols, rows split -> its transpose, rows split.
    for (const auto& [rows, cols] :
         std::vector<std::pair<std::int64_t, std::int64_t>>{{8, 8}, {7, 13}, {16, 3}, {1, 5}}) {
      for (const std::string b : {"auto", "tra_v", "pairwise", "shared_window"}) {
        a2a::Transpose2d t(h.comm(), rows, cols, sizeof(std::complex<double>), b);
        const auto [r0, r1] = t.rows_before();
        const auto [c0, c1] = t.rows_after();
        std::vector<std::complex<double>> in, out(static_cast<std::size_t>((c1 - c0) * rows));
        for (auto r = r0; r < r1; ++r)
          for (std::int64_t c = 0; c < cols; ++c)
            in.push_back(value_at<double>(r, c, 0));
        t.execute(in.data(), out.data());
        bool ok = true;
        for (auto c = c0; c < c1; ++c)
          for (std::int64_t r = 0; r < rows; ++r)
            ok &= out[static_cast<std::size_t>((c - c0) * rows + r)] == value_at<double>(r, c, 0);
        h.expect(ok, "Transpose2d " + std::to_string(rows) + "x" + std::to_string(cols) + " " + b);
      }
    }
    // Other element sizes (a fixed-size and a run-time-size tiled copy): 8-byte indices and
    // 24-byte records, each element naming its (row, column).
    for (std::size_t bytes : {std::size_t{8}, std::size_t{24}}) {
      const std::int64_t rows = 45, cols = 37;  // more than one 32 x 32 tile, ragged edges
      a2a::Transpose2d t(h.comm(), rows, cols, bytes, "auto");
      const auto [r0, r1] = t.rows_before();
      const auto [c0, c1] = t.rows_after();
      auto stamp = [&](std::byte* at, std::int64_t r, std::int64_t c) {
        for (std::size_t b = 0; b < bytes; ++b)
          at[b] = static_cast<std::byte>((r * 7 + c * 13 + static_cast<std::int64_t>(b)) % 251);
      };
      std::vector<std::byte> in(static_cast<std::size_t>((r1 - r0) * cols) * bytes);
      std::vector<std::byte> out(static_cast<std::size_t>((c1 - c0) * rows) * bytes), want(out);
      for (auto r = r0; r < r1; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
          stamp(&in[static_cast<std::size_t>((r - r0) * cols + c) * bytes], r, c);
      for (auto c = c0; c < c1; ++c)
        for (std::int64_t r = 0; r < rows; ++r)
          stamp(&want[static_cast<std::size_t>((c - c0) * rows + r) * bytes], r, c);
      t.execute(in.data(), out.data());
      h.expect(out == want, "Transpose2d 45x37 of " + std::to_string(bytes) + "-byte elements");
    }
    // Boxes that do not tile the same set are refused on every rank.
    std::string message;
    try {
      Box in{{me, 0, 0}, {me + 1, 4, 4}}, out{{0, 0, 0}, {me == 0 ? 2 : 1, 4, 4}};
      a2a::Redistribution bad(h.comm(), in, out, 16);
    } catch (const a2a::Error& e) {
      message = e.what();
    }
    h.expect(P == 1 || message.find("do not cover") != std::string::npos,
             "mismatched boxes are refused: '" + message + "'");
    // An overlap and a gap whose counts cancel (rank 0's output also holds rank 1's row, the
    // last rank's is empty): every count adds up, the overlap is still refused.
    message.clear();
    try {
      const std::int64_t y0 = me, y1 = me == 0 ? 2 : (me == P - 1 ? me : me + 1);
      Box in{{me, 0, 0}, {me + 1, P, 1}}, out{{0, y0, 0}, {P, y1, 1}};
      a2a::Redistribution bad(h.comm(), in, out, 8);
    } catch (const a2a::Error& e) {
      message = e.what();
    }
    h.expect(P < 3 || message.find("do not cover") != std::string::npos,
             "overlapping boxes whose counts add up are refused: '" + message + "'");

    if (P > 1) {  // one rank's element size differs: refused on every rank, not a hang
      a2a::test::expect_error(h, "one rank's element size", "different element sizes", [&] {
        const Box mine{{me, 0, 0}, {me + 1, 2, 2}};
        a2a::Redistribution odd(h.comm(), mine, mine, me == 0 ? 16 : 8, 1);
      });
      a2a::test::expect_error(h, "one rank's field count", "field counts", [&] {
        const Box mine{{me, 0, 0}, {me + 1, 2, 2}};
        a2a::Redistribution odd(h.comm(), mine, mine, 8, me == P - 1 ? 2 : 3);
      });
    }
    a2a::test::expect_error(h, "a redistribution of 0 fields", "fields is 0", [&] {
      const Box mine{{me, 0, 0}, {me + 1, 2, 2}};
      a2a::Redistribution none(h.comm(), mine, mine, 8, 0);
    });

    // A redistribution (and so its plan) moved from: every use is an error, not a crash.
    {
      const Box mine{{me, 0, 0}, {me + 1, 2, 2}};
      a2a::Redistribution from(h.comm(), mine, mine, 8);
      a2a::Redistribution to(std::move(from));
      std::vector<double> x(4, 1.0), y(4);
      to.execute(x.data(), y.data());
      h.expect(y == x, "the redistribution moved to works");
      a2a::test::expect_error(h, "direct() of a moved-from redistribution", "moved from",
                              [&] { (void)from.direct(); });
      a2a::test::expect_error(h, "execute of a moved-from redistribution", "moved from",
                              [&] { from.execute(x.data(), y.data()); });
    }
    code = h.finish();
  }
  MPI_Finalize();
  return code;
}
