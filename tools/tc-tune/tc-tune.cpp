//===- tc-tune.cpp - tune a model's GPU kernels on the GPU that runs them
//--===//
//
// A model compiled with --gpu-candidates (or --mode=max-autotune for a GPU)
// carries its contraction kernels in a few alternative configurations. This
// tool times them on a GPU (tc_module_tune_gpu) and writes the winners to
// that GPU's tuning table in the cache directory, which every later load of
// the model (or of another model with the same kernels) on a GPU of that
// model applies: the tuning done ahead of time, on the machine that will
// run the model, instead of at its first run.
//
//===----------------------------------------------------------------------===//

#include "TensorFile.h"

#include "tc-runtime/runtime.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace tc::run;

namespace {

const char kUsage[] =
    "usage: tc-tune model.so --device=cuda:N|hip:N [options]\n"
    "  --input=NAME=FILE | --input=FILE  a tuning input (.npy or .pb);\n"
    "                                    without, inputs are generated from\n"
    "                                    the static signature (floats in\n"
    "                                    [-1, 1) from a fixed seed, integers\n"
    "                                    1, booleans true)\n"
    "  --budget=S                        stop timing after S seconds (60)\n"
    "  --rounds=N                        timed rounds (5)\n"
    "  --retune                          time the kernels the table knows\n"
    "  --no-table                        neither read nor write the table\n"
    "  --cache-dir=DIR                   the cache directory of the tables\n"
    "                                    (default: TC_CACHE_DIR, else\n"
    "                                    $XDG_CACHE_HOME/tc or ~/.cache/tc)\n"
    "  --help                            this text\n";

struct Handles {
  tc_runtime *runtime = nullptr;
  tc_device *device = nullptr;
  tc_module *module = nullptr;
  ~Handles() {
    tc_module_release(module);
    tc_device_release(device);
    tc_runtime_release(runtime);
  }
} handles;

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "tc-tune: error: %s\n", message.c_str());
  std::exit(1);
}

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "tc-tune: error: %s\n%s", message.c_str(), kUsage);
  std::exit(1);
}

struct Options {
  std::string model, device, cacheDir;
  std::vector<std::string> inputs;
  tc_gpu_tune_options tune;
};

double parseNumber(const std::string &flag, const std::string &value,
                   double min, double max, bool integer) {
  char *end = nullptr;
  errno = 0;
  double parsed = std::strtod(value.c_str(), &end);
  if (value.empty() || *end || errno || !(parsed >= min && parsed <= max) ||
      (integer && parsed != std::floor(parsed)))
    usageError(flag + "=" + value + ": expected " +
               (integer ? "an integer" : "a number") + " from " +
               std::to_string(static_cast<long long>(min)) + " to " +
               std::to_string(static_cast<long long>(max)));
  return parsed;
}

Options parseOptions(int argc, char **argv) {
  Options options;
  tc_gpu_tune_options_init(&options.tune);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg.empty() || arg[0] != '-') {
      if (!options.model.empty())
        usageError("unexpected argument '" + arg + "' (the model is '" +
                   options.model + "')");
      options.model = arg;
      continue;
    }
    size_t equals = arg.find('=');
    std::string flag = arg.substr(0, equals);
    bool hasValue = equals != std::string::npos;
    std::string value = hasValue ? arg.substr(equals + 1) : "";
    auto needValue = [&] {
      if (value.empty())
        usageError(flag + " needs a value (" + flag + "=...)");
    };
    if (flag == "--device") {
      needValue();
      options.device = value;
    } else if (flag == "--input") {
      needValue();
      options.inputs.push_back(value);
    } else if (flag == "--budget") {
      needValue();
      options.tune.budget_seconds = parseNumber(flag, value, 0, 86400, false);
    } else if (flag == "--rounds") {
      needValue();
      options.tune.rounds =
          static_cast<int32_t>(parseNumber(flag, value, 1, 1000, true));
    } else if (flag == "--retune" && !hasValue) {
      options.tune.retune = 1;
    } else if (flag == "--no-table" && !hasValue) {
      options.tune.use_table = 0;
    } else if (flag == "--cache-dir") {
      needValue();
      options.cacheDir = value;
    } else {
      usageError("unknown option '" + arg + "'");
    }
  }
  if (options.model.empty())
    usageError("no model.so given");
  if (options.device.empty())
    usageError("no --device given (the GPU to tune on: cuda:N or hip:N)");
  return options;
}

/// A float's nearest half (round to nearest even; no NaN inputs here).
uint16_t toHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000u;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent <= 0) { // a subnormal half, or zero
    if (exponent < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1),
             midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half =
      sign | (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
    ++half;
  return static_cast<uint16_t>(half);
}

/// A generated input of `info`'s static shape: what tc-compile's CPU
/// tuner feeds (docs/autotuning.md).
TensorPtr generateInput(const tc_arg_info &info, std::mt19937 &random) {
  std::vector<int64_t> dims(info.dims, info.dims + info.rank);
  int64_t count = 1;
  for (int32_t axis = 0; axis < info.rank; ++axis) {
    if (dims[axis] < 0)
      die("input '" + std::string(info.name) + "' has a dynamic extent (axis " +
          std::to_string(axis) + "): give it with --input");
    count *= dims[axis];
  }
  size_t size = tc_dtype_size(info.dtype);
  std::vector<unsigned char> bytes(static_cast<size_t>(count) * size);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (int64_t i = 0; i < count; ++i) {
    unsigned char *at = bytes.data() + i * size;
    float value = uniform(random);
    switch (info.dtype) {
    case TC_DTYPE_F32:
      std::memcpy(at, &value, 4);
      break;
    case TC_DTYPE_F64: {
      double wide = value;
      std::memcpy(at, &wide, 8);
      break;
    }
    case TC_DTYPE_F16: {
      uint16_t half = toHalf(value);
      std::memcpy(at, &half, 2);
      break;
    }
    case TC_DTYPE_BF16: {
      uint32_t bits;
      std::memcpy(&bits, &value, 4);
      uint16_t upper = static_cast<uint16_t>(bits >> 16);
      std::memcpy(at, &upper, 2);
      break;
    }
    default: {
      // Integers 1 (an index, a count, a mask), booleans true; the narrow
      // float types' byte 0 (zero).
      bool integral =
          info.dtype == TC_DTYPE_BOOL || info.dtype == TC_DTYPE_I8 ||
          info.dtype == TC_DTYPE_U8 || info.dtype == TC_DTYPE_I16 ||
          info.dtype == TC_DTYPE_U16 || info.dtype == TC_DTYPE_I32 ||
          info.dtype == TC_DTYPE_U32 || info.dtype == TC_DTYPE_I64 ||
          info.dtype == TC_DTYPE_U64;
      if (integral && size)
        at[0] = 1; // little-endian
      break;
    }
    }
  }
  tc_tensor *tensor = nullptr;
  if (tc_status status =
          tc_tensor_create_copy(info.dtype, info.rank, dims.data(),
                                bytes.data(), bytes.size(), &tensor))
    die("input '" + std::string(info.name) + "': " + takeMessage(status));
  return TensorPtr(tensor);
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  tc_runtime_options runtimeOptions;
  tc_runtime_options_init(&runtimeOptions);
  runtimeOptions.num_threads = 1;
  // The table's choices are applied at load; the tuning itself is asked
  // for below (not at a first run).
  runtimeOptions.gpu_tuning = 1;
  runtimeOptions.cache_dir = options.cacheDir.c_str();
  if (tc_status status = tc_runtime_create(&runtimeOptions, &handles.runtime))
    die(takeMessage(status));
  if (options.device.rfind("cuda", 0) != 0 &&
      options.device.rfind("hip", 0) != 0)
    die("--device=" + options.device +
        ": tuning runs on a GPU (cuda:N or hip:N)");
  if (tc_status status = tc_device_create(
          handles.runtime, options.device.c_str(), &handles.device))
    die("--device=" + options.device + ": " + takeMessage(status));
  if (tc_status status = tc_module_load(handles.runtime, options.model.c_str(),
                                        &handles.module))
    die(takeMessage(status));
  tc_module *module = handles.module;
  tc_device *device = handles.device;
  size_t sites = tc_module_num_gpu_sites(module);
  if (sites == 0)
    die("model '" + options.model +
        "' has no tunable GPU kernels (compile it with --gpu-candidates=N or "
        "--mode=max-autotune)");

  // Inputs: given in order or by name, else generated.
  size_t numInputs = tc_module_num_inputs(module);
  std::vector<tc_arg_info> infos(numInputs);
  for (size_t i = 0; i < numInputs; ++i)
    if (tc_status status = tc_module_input_info(module, i, &infos[i]))
      die(takeMessage(status));
  std::vector<std::string> files(numInputs);
  size_t next = 0;
  for (const std::string &spec : options.inputs) {
    size_t equals = spec.find('=');
    bool named = false;
    for (size_t i = 0; equals != std::string::npos && i < numInputs; ++i)
      if (spec.compare(0, equals, infos[i].name) == 0 &&
          std::strlen(infos[i].name) == equals) {
        files[i] = spec.substr(equals + 1);
        named = true;
      }
    if (named)
      continue;
    while (next < numInputs && !files[next].empty())
      ++next;
    if (next == numInputs)
      die("--input=" + spec + ": the model has only " +
          std::to_string(numInputs) + " inputs");
    files[next++] = spec;
  }
  std::mt19937 random(0);
  std::vector<TensorPtr> tensors;
  std::vector<tc_tensor *> inputs;
  for (size_t i = 0; i < numInputs; ++i) {
    if (files[i].empty()) {
      tensors.push_back(generateInput(infos[i], random));
    } else {
      std::string error;
      TensorPtr tensor = readTensorFile(files[i], error);
      if (tensor)
        tensor = adoptStandIn(std::move(tensor), infos[i].dtype, error);
      if (!tensor)
        die("--input for '" + std::string(infos[i].name) + "': " + error);
      tensors.push_back(std::move(tensor));
    }
    inputs.push_back(tensors.back().get());
  }

  std::printf("tc-tune: '%s' on %s: %zu tunable kernels\n",
              options.model.c_str(), tc_device_spec(device), sites);
  std::string table = tc_device_gpu_tuning_table(device);
  if (options.tune.use_table)
    std::printf("table: %s\n",
                table.empty() ? "none (no cache directory)" : table.c_str());
  tc_gpu_tune_report report;
  if (tc_status status = tc_module_tune_gpu(
          module, device, inputs.data(), inputs.size(), &options.tune, &report))
    die(takeMessage(status));
  std::printf("kernel keys: %lld (%lld from the table), %lld timed in %lld "
              "runs, %.2f s%s\n",
              static_cast<long long>(report.keys),
              static_cast<long long>(report.keys_from_table),
              static_cast<long long>(report.keys_tuned),
              static_cast<long long>(report.runs), report.seconds,
              report.budget_exhausted ? " (the budget ended the rounds)" : "");
  if (report.keys_tuned)
    std::printf("timed kernels: %.4f ms per run with the heuristic "
                "configurations, %.4f ms as tuned (%lld keys changed)\n",
                report.heuristic_ms, report.tuned_ms,
                static_cast<long long>(report.keys_changed));
  // One line per kernel key: the alternative its sites run.
  std::set<std::string> printed;
  for (size_t site = 0; site < sites; ++site) {
    std::string key = tc_module_gpu_site_key(module, site);
    if (!printed.insert(key).second)
      continue;
    int32_t choice = tc_device_gpu_choice(device, module, site);
    if (choice < 0)
      std::printf("%s: heuristic\n", key.c_str());
    else
      std::printf("%s: alternative %d %s\n", key.c_str(), choice,
                  tc_module_gpu_site_candidate(module, site,
                                               static_cast<size_t>(choice)));
  }
  return 0;
}
