// Choice of the default policy by the kind of device.
#include "reduce/policy.hpp"

namespace clreduce {

const ReducePolicy& default_policy(const DeviceInfo& dev, ElemType) {
  if (dev.is_gpu && dev.is_nvidia) return kNvidiaGpuPolicy;
  if (dev.is_gpu) return kGpuPolicy;
  return kCpuPolicy;
}

}  // namespace clreduce
