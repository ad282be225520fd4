// Parameter names, and OpenCL status codes to names (the one error path for OpenCL failures).
#include "clreduce/error.hpp"

namespace clreduce {

std::string_view name_of(Param p) {
  switch (p) {
    case Param::None: return "";
    case Param::Variant: return "variant";
    case Param::Type: return "type";
    case Param::Op: return "operator";
    case Param::N: return "n";
    case Param::Offset: return "offset";
    case Param::WorkGroupSize: return "work-group size";
    case Param::Times: return "TIMES";
    case Param::GroupsPerCu: return "groups per compute unit";
    case Param::Vec: return "VEC";
    case Param::Define: return "-D definition";
    case Param::KernelDir: return "kernel directory";
    case Param::TuningDb: return "tuning database";
    case Param::Device: return "device";
    case Param::Platform: return "platform";
    case Param::Queue: return "command queue";
    case Param::Buffer: return "buffer";
    case Param::Shape: return "shape";
    case Param::WgX: return "WG_X";
    case Param::WgY: return "WG_Y";
    case Param::Tile: return "TILE";
    case Param::Rows: return "ROWS";
    case Param::Axis: return "axis";
    case Param::RowWidth: return "ROW_WIDTH";
    case Param::Chunks: return "row chunks";
    case Param::Segments: return "segments";
    case Param::OpFile: return "operator file";
    case Param::Scalars: return "scalar arguments";
    case Param::Launch: return "launch";
    case Param::Devices: return "device list";
    case Param::Split: return "split";
    case Param::HostPath: return "host path";
  }
  return "";
}

const char* cl_status_name(cl_int status) {
  switch (status) {
#define CLREDUCE_STATUS(x) \
  case x:                  \
    return #x;
    CLREDUCE_STATUS(CL_SUCCESS)
    CLREDUCE_STATUS(CL_DEVICE_NOT_FOUND)
    CLREDUCE_STATUS(CL_DEVICE_NOT_AVAILABLE)
    CLREDUCE_STATUS(CL_COMPILER_NOT_AVAILABLE)
    CLREDUCE_STATUS(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CLREDUCE_STATUS(CL_OUT_OF_RESOURCES)
    CLREDUCE_STATUS(CL_OUT_OF_HOST_MEMORY)
    CLREDUCE_STATUS(CL_PROFILING_INFO_NOT_AVAILABLE)
    CLREDUCE_STATUS(CL_MEM_COPY_OVERLAP)
    CLREDUCE_STATUS(CL_IMAGE_FORMAT_MISMATCH)
    CLREDUCE_STATUS(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    CLREDUCE_STATUS(CL_BUILD_PROGRAM_FAILURE)
    CLREDUCE_STATUS(CL_MAP_FAILURE)
    CLREDUCE_STATUS(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    CLREDUCE_STATUS(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    CLREDUCE_STATUS(CL_COMPILE_PROGRAM_FAILURE)
    CLREDUCE_STATUS(CL_LINKER_NOT_AVAILABLE)
    CLREDUCE_STATUS(CL_LINK_PROGRAM_FAILURE)
    CLREDUCE_STATUS(CL_DEVICE_PARTITION_FAILED)
    CLREDUCE_STATUS(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    CLREDUCE_STATUS(CL_INVALID_VALUE)
    CLREDUCE_STATUS(CL_INVALID_DEVICE_TYPE)
    CLREDUCE_STATUS(CL_INVALID_PLATFORM)
    CLREDUCE_STATUS(CL_INVALID_DEVICE)
    CLREDUCE_STATUS(CL_INVALID_CONTEXT)
    CLREDUCE_STATUS(CL_INVALID_QUEUE_PROPERTIES)
    CLREDUCE_STATUS(CL_INVALID_COMMAND_QUEUE)
    CLREDUCE_STATUS(CL_INVALID_HOST_PTR)
    CLREDUCE_STATUS(CL_INVALID_MEM_OBJECT)
    CLREDUCE_STATUS(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    CLREDUCE_STATUS(CL_INVALID_IMAGE_SIZE)
    CLREDUCE_STATUS(CL_INVALID_SAMPLER)
    CLREDUCE_STATUS(CL_INVALID_BINARY)
    CLREDUCE_STATUS(CL_INVALID_BUILD_OPTIONS)
    CLREDUCE_STATUS(CL_INVALID_PROGRAM)
    CLREDUCE_STATUS(CL_INVALID_PROGRAM_EXECUTABLE)
    CLREDUCE_STATUS(CL_INVALID_KERNEL_NAME)
    CLREDUCE_STATUS(CL_INVALID_KERNEL_DEFINITION)
    CLREDUCE_STATUS(CL_INVALID_KERNEL)
    CLREDUCE_STATUS(CL_INVALID_ARG_INDEX)
    CLREDUCE_STATUS(CL_INVALID_ARG_VALUE)
    CLREDUCE_STATUS(CL_INVALID_ARG_SIZE)
    CLREDUCE_STATUS(CL_INVALID_KERNEL_ARGS)
    CLREDUCE_STATUS(CL_INVALID_WORK_DIMENSION)
    CLREDUCE_STATUS(CL_INVALID_WORK_GROUP_SIZE)
    CLREDUCE_STATUS(CL_INVALID_WORK_ITEM_SIZE)
    CLREDUCE_STATUS(CL_INVALID_GLOBAL_OFFSET)
    CLREDUCE_STATUS(CL_INVALID_EVENT_WAIT_LIST)
    CLREDUCE_STATUS(CL_INVALID_EVENT)
    CLREDUCE_STATUS(CL_INVALID_OPERATION)
    CLREDUCE_STATUS(CL_INVALID_GL_OBJECT)
    CLREDUCE_STATUS(CL_INVALID_BUFFER_SIZE)
    CLREDUCE_STATUS(CL_INVALID_MIP_LEVEL)
    CLREDUCE_STATUS(CL_INVALID_GLOBAL_WORK_SIZE)
    CLREDUCE_STATUS(CL_INVALID_PROPERTY)
    CLREDUCE_STATUS(CL_INVALID_IMAGE_DESCRIPTOR)
    CLREDUCE_STATUS(CL_INVALID_COMPILER_OPTIONS)
    CLREDUCE_STATUS(CL_INVALID_LINKER_OPTIONS)
    CLREDUCE_STATUS(CL_INVALID_DEVICE_PARTITION_COUNT)
    CLREDUCE_STATUS(CL_PLATFORM_NOT_FOUND_KHR)
#undef CLREDUCE_STATUS
    default:
      return "unknown OpenCL status";
  }
}

std::string describe(const cl::Error& e) {
  return std::string(e.what()) + " failed: " + cl_status_name(e.err()) + " (" +
         std::to_string(e.err()) + ")";
}

}  // namespace clreduce
