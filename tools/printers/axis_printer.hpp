// Renderings of one axis reduction (`clreduce reduce --axis`): text, CSV and JSON of one model.
#pragma once

#include "benchmarks/axis_run.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string axis_text(const AxisReport& r, const DeviceInfo& dev);
std::string axis_csv(const AxisReport& r);
nlohmann::json axis_json(const AxisReport& r, const DeviceInfo& dev);
// The fields a run with one checked value per output shares (axis and segmented reductions):
// time_us, single_call_us, single_call_events_us, batch, samples, clock, gbps, check, ok.
nlohmann::json timed_outputs_json(const Sampled& timing, double gbps, const AxisCheck& check);

}  // namespace clreduce
