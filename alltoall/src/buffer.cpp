// Where SimGrid folds the large ByteBuffers (a2a/buffer.hpp).
#include "a2a/buffer.hpp"

#ifdef A2A_SMPI
#include <xbt/config.hpp>
#endif

namespace a2a {

std::size_t simulation_fold_threshold() {
#ifdef A2A_SMPI
  // SimGrid declares this setting as a double (reading it as an int gives 0).
  const double threshold = simgrid::config::get_value<double>("smpi/auto-shared-malloc-thresh");
  return threshold > 0 ? static_cast<std::size_t>(threshold) : 0;
#else
  return 0;
#endif
}

}  // namespace a2a
