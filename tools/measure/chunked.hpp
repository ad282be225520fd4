// Measured reductions of inputs larger than the device's largest single allocation
// (CL_DEVICE_MAX_MEM_ALLOC_SIZE): the input goes to the device as several buffers (chunks of
// chunk_elements), each is reduced to one value on the device by the same reducer, the values
// are copied into one small buffer, and the host folds those few values with the operator
// (fold_values, clreduce/reduce.hpp). Timed as one unit of work.
#pragma once

#include "measure/measure.hpp"

namespace clreduce {

// The chunked form of run_reduce (which calls it when n is over one allocation). The report's plan
// is that of a whole chunk; its depth adds the host's fold over the chunks.
ReduceReport run_reduce_chunked(const Session& session, Reducer& reducer, const HostData& data, Op op,
                                const TimingOptions& timing);

}  // namespace clreduce
