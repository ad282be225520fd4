// Reductions of inputs larger than the device's largest single allocation
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE): the input goes to the device as several buffers (chunks of
// chunk_elements), each is reduced to one value on the device by the same planned variant, the
// values are copied into one small buffer, and the host folds those few values with the operator.
#pragma once

#include "benchmarks/family.hpp"

namespace clreduce {

// The chunked form of run_reduce (which calls it when n is over one allocation). The report's plan
// is that of a whole chunk; its depth adds the host's fold over the chunks.
ReduceReport run_reduce_chunked(Runtime& rt, const ReduceConfig& cfg, const HostData& data,
                                const TimingOptions& timing);

// The chunks' values folded with op, in order, in the element type (sums wrap for integers).
Value fold_values(const std::vector<Value>& values, Op op);

}  // namespace clreduce
