// clreduce doctor: why no platform or no GPU is found, and whether the event timer can be
// trusted. Looks where the ICD loader looks (OCL_ICD_FILENAMES, OCL_ICD_VENDORS, else
// /etc/OpenCL/vendors), opens each vendor library itself to name a missing dependency, lists
// what the loader then finds, and checks one device's profiling timer against the host clock.
#pragma once

#include "clreduce/device.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// One finding: a check, whether it passed, and what it saw (or what to do).
struct Finding {
  std::string check;
  bool ok = true;
  std::string detail;
};

// One vendor library the ICD loader would try.
struct VendorLibrary {
  std::string source;   // the .icd file that names it, or "OCL_ICD_FILENAMES"
  std::string library;  // as named there
  bool loads = false;
  bool has_icd_entry = false;  // provides clIcdGetPlatformIDsKHR (cl_khr_icd)
  std::string error;           // dlerror(): e.g. the missing dependency
};

struct DoctorReport {
  std::string vendors_dir;             // where the .icd files were looked for
  std::string vendors_dir_origin;      // "OCL_ICD_VENDORS" or "default"
  std::vector<VendorLibrary> libraries;
  std::vector<Finding> findings;       // in the order they were checked
  bool ok() const;
};

// The ICD vendor files and libraries (no OpenCL call): what the loader will try to load.
std::vector<VendorLibrary> find_vendor_libraries(std::string* vendors_dir = nullptr,
                                                 std::string* origin = nullptr);

// Every check; `device` picks the device whose timer is checked (default: the default device).
DoctorReport run_doctor(const DeviceSelector& device);

std::string doctor_text(const DoctorReport& r);

}  // namespace clreduce
