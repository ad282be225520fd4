// Renderings of one axis reduction (`clreduce reduce --axis`): text, CSV and JSON of one model.
#pragma once

#include "benchmarks/axis_run.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string axis_text(const AxisReport& r, const DeviceInfo& dev);
// Where the launch came from, for a person: "tuned (class rows.short.many, 2026-11-25T16:00:00Z;
// variant=rows_sliced, wg=128 from PATH)", "default rule (class cols.wide)", "given (class ...)".
std::string axis_source_text(const AxisReport& r);
std::string axis_csv(const AxisReport& r);
nlohmann::json axis_json(const AxisReport& r, const DeviceInfo& dev);
// The fields a run with one checked value per output shares (axis and segmented reductions):
// time_us, single_call_us, single_call_events_us, batch, samples, clock, gbps, check, ok.
nlohmann::json timed_outputs_json(const Sampled& timing, double gbps, const AxisCheck& check);

// The first `most` outputs as read back, for a person: "row 0: 12.5; row 1: 3 (first 2 of 9)",
// an argmin/argmax output as "row 0: 0.5 at 17" ("at none" for an empty segment). `what` names
// one output: "row", "column", "segment", "whole array".
std::string first_outputs_text(const Outputs& o, const std::string& what, std::size_t most = 4);
// The same as JSON: [{"value": "12.5"}, ...] (values as exact text: JSON has no NaN or inf), with
// "index" for argmin/argmax (null for none).
nlohmann::json first_outputs_json(const Outputs& o, std::size_t most = 4);

}  // namespace clreduce
