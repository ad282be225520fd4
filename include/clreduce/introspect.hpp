// clreduce's introspection headers, for measuring tools (clreduce's own benchmarks, tune, soak,
// explain and tests use them) and for anyone who wants to see what a reducer does: the launch a
// reducer resolves (its configuration, plan of passes, option strings, where each parameter came
// from), that launch enqueued on a queue of one's own, the buffers and counters it leaves, and
// the reducer's allocation and build counts. An application that only reduces includes
// clreduce/clreduce.hpp, which does not include these.
//
//   introspect/reduce.hpp     Reducer: Launch, Plan, PassPlan, DescriptorLaunch; prepare, enqueue,
//                             read_result, result_buffer, counter_buffer, allocations, launches_prepared
//   introspect/axis.hpp       AxisReducer: AxisLaunch, AxisPlan, AxisPassPlan; prepare, enqueue
//   introspect/segmented.hpp  SegmentedReducer: SegmentedLaunch, SegmentedPlan; prepare, enqueue
//   introspect/transpose.hpp  Transposer: TransposeLaunch, TransposePlan; prepare, enqueue
//
// Every hook is a free function in clreduce::introspect taking the reducer first:
//   auto launch = clreduce::introspect::prepare(reducer, clreduce::ElemType::Float, clreduce::Op::Sum, n);
//   clreduce::introspect::enqueue(reducer, *launch, buffer);
#pragma once

#include "clreduce/introspect/axis.hpp"
#include "clreduce/introspect/reduce.hpp"
#include "clreduce/introspect/segmented.hpp"
#include "clreduce/introspect/transpose.hpp"
