//===- tc-run.cpp - run a compiled model.so on tensors from files
//------------===//
//
// The command-line face of libTcRuntime: loads a model, feeds it .npy / .pb
// tensors, and writes, compares, prints or times its outputs. Every failure
// is a one-line message naming the flag, input or file, and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "Profile.h"
#include "TensorFile.h"

#include "tc-runtime/runtime.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace tc::run;

namespace {

const char kUsage[] =
    "usage: tc-run model.so [options]\n"
    "  --input=NAME=FILE | --input=FILE     an input (.npy or .pb); without\n"
    "                                       NAME, inputs are taken in order\n"
    "  --output=NAME=FILE.npy | --output=DIR  write an output / all outputs\n"
    "  --compare=NAME=FILE | --compare=FILE compare outputs with expected\n"
    "                                       values (without NAME, in order)\n"
    "  --rtol=X (1e-3) --atol=X (1e-5)      tolerances of --compare\n"
    "  --threads=N                          CPU threads (default: all)\n"
    "  --device=auto|cpu|cuda:N|hip:N       where to run (default: auto)\n"
    "  --gpu-graphs | --no-gpu-graphs       on a GPU, replay runs as graphs\n"
    "                                       (from the second run at a shape,\n"
    "                                       one launch per run), or never\n"
    "                                       (default: a model compiled with\n"
    "                                       --mode=reduce-overhead replays)\n"
    "  --gpu-choice=C                       on a GPU, every tunable kernel\n"
    "                                       (tc-compile --gpu-candidates)\n"
    "                                       runs its alternative C (0 the\n"
    "                                       first; with fewer, its heuristic\n"
    "                                       kernel); -1: the heuristic ones\n"
    "  --gpu-tuning=off|table|tune          on a GPU, what tunable kernels\n"
    "                                       run: the heuristic ones, the\n"
    "                                       device's tuning table's choices\n"
    "                                       (tc-tune), or the table's after\n"
    "                                       the first run tuned those it\n"
    "                                       lacks (default: tune for a model\n"
    "                                       compiled with "
    "--mode=max-autotune,\n"
    "                                       else table)\n"
    "  --benchmark=N [--warmup=N (3)]       time N runs (--output and\n"
    "                                       --compare see the last)\n"
    "  --profile                            time each kernel of the timed\n"
    "                                       runs (--benchmark, else 10) and\n"
    "                                       print their shares with the ONNX\n"
    "                                       nodes they compute (CPU code)\n"
    "  --profile-json=FILE                  the same, all nodes, as JSON\n"
    "  --print-signature                    print the inputs and outputs\n"
    "  --help                               this text\n"
    "numpy lacks bf16 and the narrow types: .npy files hold bf16 as uint16\n"
    "bits, f8*/f4e2m1fn as uint8 bits, i4 u4 i2 u2 as int8/uint8 values.\n";

struct Options {
  std::string model;
  std::vector<std::string> inputs, outputs, compares;
  Tolerance tolerance;
  int32_t threads = 0;
  std::string device = "auto";
  int32_t gpuGraphs = -1; // tc_runtime_options.gpu_graphs
  std::optional<int32_t> gpuChoice; // --gpu-choice
  int32_t gpuTuning = -1;           // tc_runtime_options.gpu_tuning
  int64_t benchmark = 0;
  int64_t warmup = 3;
  bool printSignature = false;
  bool profile = false;
  std::string profileJson;
};

/// The runtime objects of this run. die() leaves through std::exit, so they
/// live here, released by the destructor on every way out (a leak checker
/// reads every exit).
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
  std::fprintf(stderr, "tc-run: error: %s\n", message.c_str());
  std::exit(1);
}

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "tc-run: error: %s\n%s", message.c_str(), kUsage);
  std::exit(1);
}

int64_t parseCount(const std::string &flag, const std::string &value,
                   int64_t min, int64_t max = INT32_MAX) {
  char *end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end || errno || parsed < min || parsed > max)
    usageError(flag + "=" + value + ": expected an integer from " +
               std::to_string(min) + " to " + std::to_string(max));
  return parsed;
}

double parseTolerance(const std::string &flag, const std::string &value) {
  char *end = nullptr;
  double parsed = std::strtod(value.c_str(), &end);
  if (value.empty() || *end || !(parsed >= 0) || std::isinf(parsed))
    usageError(flag + "=" + value + ": expected a non-negative number");
  return parsed;
}

Options parseOptions(int argc, char **argv) {
  Options options;
  bool haveModel = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg.compare(0, 1, "-") != 0 || arg == "-") {
      if (haveModel)
        usageError("unexpected argument '" + arg + "' (the model is '" +
                   options.model + "'; inputs are given with --input=)");
      options.model = arg;
      haveModel = true;
      continue;
    }
    size_t equals = arg.find('=');
    std::string flag = arg.substr(0, equals);
    std::string value =
        equals == std::string::npos ? "" : arg.substr(equals + 1);
    bool hasValue = equals != std::string::npos;
    auto needValue = [&] {
      if (!hasValue || value.empty())
        usageError(flag + " needs a value (" + flag + "=...)");
    };
    if (flag == "--input") {
      needValue();
      options.inputs.push_back(value);
    } else if (flag == "--output") {
      needValue();
      options.outputs.push_back(value);
    } else if (flag == "--compare") {
      needValue();
      options.compares.push_back(value);
    } else if (flag == "--rtol") {
      needValue();
      options.tolerance.rtol = parseTolerance(flag, value);
    } else if (flag == "--atol") {
      needValue();
      options.tolerance.atol = parseTolerance(flag, value);
    } else if (flag == "--threads") {
      needValue();
      options.threads =
          static_cast<int32_t>(parseCount(flag, value, 1, TC_MAX_THREADS));
    } else if (flag == "--device") {
      needValue();
      options.device = value;
    } else if (flag == "--benchmark") {
      needValue();
      options.benchmark = parseCount(flag, value, 1);
    } else if (flag == "--warmup") {
      needValue();
      options.warmup = parseCount(flag, value, 0);
    } else if (flag == "--gpu-graphs" && !hasValue) {
      options.gpuGraphs = 1;
    } else if (flag == "--no-gpu-graphs" && !hasValue) {
      options.gpuGraphs = 0;
    } else if (flag == "--gpu-choice") {
      needValue();
      options.gpuChoice = static_cast<int32_t>(parseCount(flag, value, -1));
    } else if (flag == "--gpu-tuning") {
      needValue();
      if (value == "off")
        options.gpuTuning = 0;
      else if (value == "table")
        options.gpuTuning = 1;
      else if (value == "tune")
        options.gpuTuning = 2;
      else
        usageError("--gpu-tuning=" + value + ": expected off, table or tune");
    } else if (flag == "--profile" && !hasValue) {
      options.profile = true;
    } else if (flag == "--profile-json") {
      needValue();
      options.profile = true;
      options.profileJson = value;
    } else if (flag == "--print-signature" && !hasValue) {
      options.printSignature = true;
    } else {
      usageError("unknown option '" + arg + "'");
    }
  }
  if (!haveModel)
    usageError("no model.so given");
  return options;
}

struct Arg {
  std::string name;
  tc_arg_info info;
};

std::vector<Arg> signatureOf(tc_module *module, bool inputs) {
  size_t count =
      inputs ? tc_module_num_inputs(module) : tc_module_num_outputs(module);
  std::vector<Arg> args(count);
  for (size_t i = 0; i < count; ++i) {
    tc_status status = inputs ? tc_module_input_info(module, i, &args[i].info)
                              : tc_module_output_info(module, i, &args[i].info);
    if (status)
      die(takeMessage(status));
    args[i].name = args[i].info.name;
  }
  return args;
}

std::string describeArg(const tc_arg_info &info) {
  std::string text = std::string(tc_dtype_name(info.dtype)) + "[";
  for (int32_t i = 0; i < info.rank; ++i) {
    text += i ? ", " : "";
    if (info.dims[i] >= 0)
      text += std::to_string(info.dims[i]);
    else
      text += std::string("?") + info.dim_symbols[i];
  }
  return text + "]";
}

std::string nameList(const std::vector<Arg> &args) {
  std::string text;
  for (const Arg &arg : args)
    text += (text.empty() ? "'" : ", '") + arg.name + "'";
  return text.empty() ? "none" : text;
}

void printSignature(tc_module *module, const std::vector<Arg> &inputs,
                    const std::vector<Arg> &outputs) {
  std::printf("model '%s' (%s)\n", tc_module_name(module),
              tc_module_path(module));
  for (size_t i = 0; i < tc_module_num_targets(module); ++i)
    std::printf("  target %s\n", tc_module_target(module, i));
  if (*tc_module_compiler(module))
    std::printf("  compiled by %s\n", tc_module_compiler(module));
  if (*tc_module_cpu_name(module)) {
    std::printf("  cpu %s, using", tc_module_cpu_name(module));
    size_t count = tc_module_num_cpu_features(module);
    for (size_t i = 0; i < count; ++i)
      std::printf(" %s", tc_module_cpu_feature(module, i));
    std::printf("%s\n", count ? "" : " no optional features");
  }
  if (std::string(tc_module_mode(module)) != "default")
    std::printf("  mode %s\n", tc_module_mode(module));
  for (size_t i = 0; i < tc_module_num_shape_buckets(module); ++i)
    std::printf("  shape bucket %s: its own code for these extents; other "
                "extents run the generic code\n",
                tc_module_shape_bucket(module, i));
  for (const Arg &arg : inputs)
    std::printf("  input '%s': %s\n", arg.name.c_str(),
                describeArg(arg.info).c_str());
  for (const Arg &arg : outputs)
    std::printf("  output '%s': %s\n", arg.name.c_str(),
                describeArg(arg.info).c_str());
}

// Assigns "NAME=VALUE" / "VALUE" specs of `flag` to the arguments: a spec
// whose text before '=' is an argument name goes to that argument, the
// others fill the remaining arguments in order. Returns, per argument, its
// value ("" if none).
std::vector<std::string> assignSpecs(const std::string &flag,
                                     const std::vector<std::string> &specs,
                                     const std::vector<Arg> &args,
                                     const char *kind) {
  std::vector<std::string> assigned(args.size());
  std::vector<bool> named(args.size(), false);
  std::vector<std::string> positional;
  for (const std::string &spec : specs) {
    size_t equals = spec.find('=');
    bool matched = false;
    if (equals != std::string::npos) {
      std::string name = spec.substr(0, equals);
      for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].name != name)
          continue;
        if (named[i])
          die(flag + "=" + spec + ": " + kind + " '" + name +
              "' is given twice");
        assigned[i] = spec.substr(equals + 1);
        named[i] = matched = true;
        if (assigned[i].empty())
          die(flag + "=" + spec + ": no file after '" + name + "='");
        break;
      }
      struct stat info;
      if (!matched && stat(spec.c_str(), &info) != 0)
        die(flag + "=" + spec + ": the model has no " + kind + " named '" +
            name + "' (its " + kind + "s: " + nameList(args) + ")");
    }
    if (!matched)
      positional.push_back(spec);
  }
  size_t next = 0;
  for (const std::string &spec : positional) {
    while (next < args.size() && named[next])
      ++next;
    if (next == args.size())
      die(flag + "=" + spec + ": the model has only " +
          std::to_string(args.size()) + " " + kind + "s (" + nameList(args) +
          "), all already given");
    assigned[next++] = spec;
  }
  return assigned;
}

bool isDirectory(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// Output names can hold any byte; keep file names tame.
std::string fileNameFor(const std::string &name, size_t index) {
  if (name.empty())
    return "output_" + std::to_string(index) + ".npy";
  std::string file;
  for (char c : name)
    file += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                    c == '-' || c == '.'
                ? c
                : '_';
  if (file == "." || file == "..")
    file = "output_" + std::to_string(index);
  return file + ".npy";
}

// Per output, the files to write it to (a named file and/or directories).
std::vector<std::vector<std::string>>
resolveOutputs(const std::vector<std::string> &specs,
               const std::vector<Arg> &outputs) {
  std::vector<std::vector<std::string>> files(outputs.size());
  for (const std::string &spec : specs) {
    size_t equals = spec.find('=');
    if (equals != std::string::npos) {
      std::string name = spec.substr(0, equals);
      auto it = std::find_if(outputs.begin(), outputs.end(),
                             [&](const Arg &arg) { return arg.name == name; });
      if (it == outputs.end())
        die("--output=" + spec + ": the model has no output named '" + name +
            "' (its outputs: " + nameList(outputs) + ")");
      if (equals + 1 == spec.size())
        die("--output=" + spec + ": no file after '" + name + "='");
      files[it - outputs.begin()].push_back(spec.substr(equals + 1));
      continue;
    }
    if (spec.size() > 4 && spec.compare(spec.size() - 4, 4, ".npy") == 0 &&
        !isDirectory(spec))
      die("--output=" + spec + ": a file needs an output name (--output=NAME=" +
          spec + "); without a name, --output takes a directory");
    if (!isDirectory(spec) && mkdir(spec.c_str(), 0777) != 0)
      die("--output=" + spec +
          ": cannot create the directory: " + std::strerror(errno));
    for (size_t i = 0; i < outputs.size(); ++i)
      files[i].push_back(spec + "/" + fileNameFor(outputs[i].name, i));
  }
  return files;
}

struct Session {
  tc_module *module;
  tc_device *device;
  std::vector<tc_tensor *> inputs;
  size_t numOutputs;
};

std::vector<TensorPtr> runOnce(const Session &session) {
  std::vector<tc_tensor *> outputs(session.numOutputs, nullptr);
  if (tc_status status =
          tc_module_run(session.module, session.device, session.inputs.data(),
                        session.inputs.size(), outputs.data(), outputs.size()))
    die("running '" + std::string(tc_module_path(session.module)) +
        "': " + takeMessage(status));
  std::vector<TensorPtr> owned;
  for (tc_tensor *output : outputs)
    owned.emplace_back(output);
  return owned;
}

/// Times `runs` runs after `warmup` untimed ones (profiling the timed ones
/// with `profile`); returns the last run's outputs (with --gpu-graphs,
/// those of a replayed graph).
std::vector<TensorPtr> benchmark(const Session &session, int64_t warmup,
                                 int64_t runs, bool profile) {
  for (int64_t i = 0; i < warmup; ++i)
    runOnce(session);
  if (profile)
    tc_module_set_profiling(session.module, 1);
  std::vector<double> millis;
  std::vector<TensorPtr> outputs;
  for (int64_t i = 0; i < runs; ++i) {
    outputs.clear();
    auto start = std::chrono::steady_clock::now();
    outputs = runOnce(session);
    auto stop = std::chrono::steady_clock::now();
    // Releasing outputs is part of what a caller pays, but measure the run
    // alone, as other runtimes report it.
    millis.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::vector<double> sorted = millis;
  std::sort(sorted.begin(), sorted.end());
  double median =
      sorted.size() % 2
          ? sorted[sorted.size() / 2]
          : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  double mean = 0;
  for (double value : millis)
    mean += value / millis.size();
  std::printf("benchmark: %lld runs after %lld warmup: min %.3f ms, median "
              "%.3f ms, mean %.3f ms\n",
              static_cast<long long>(runs), static_cast<long long>(warmup),
              sorted.front(), median, mean);
  return outputs;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);

  tc_runtime_options runtimeOptions;
  tc_runtime_options_init(&runtimeOptions);
  runtimeOptions.num_threads = options.threads;
  runtimeOptions.gpu_graphs = options.gpuGraphs;
  runtimeOptions.gpu_tuning = options.gpuTuning;
  if (tc_status status =
          tc_runtime_create(&runtimeOptions, &handles.runtime))
    die(takeMessage(status));
  tc_runtime *runtime = handles.runtime;
  if (tc_status status =
          tc_device_create(runtime, options.device.c_str(), &handles.device))
    die("--device=" + options.device + ": " + takeMessage(status));
  tc_device *device = handles.device;
  if (tc_status status =
          tc_module_load(runtime, options.model.c_str(), &handles.module))
    die(takeMessage(status));
  tc_module *module = handles.module;
  if (options.gpuChoice) {
    size_t sites = tc_module_num_gpu_sites(module);
    if (sites == 0)
      die("--gpu-choice: model '" + options.model +
          "' has no tunable GPU kernels (compile it with --gpu-candidates)");
    for (size_t site = 0; site < sites; ++site) {
      int32_t choice = *options.gpuChoice;
      if (choice >=
          static_cast<int32_t>(tc_module_gpu_site_num_candidates(module, site)))
        choice = -1;
      if (tc_status status =
              tc_device_set_gpu_choice(device, module, site, choice))
        die("--gpu-choice: " + takeMessage(status));
    }
  }

  std::vector<Arg> inputs = signatureOf(module, true);
  std::vector<Arg> outputs = signatureOf(module, false);
  if (options.printSignature) {
    printSignature(module, inputs, outputs);
    if (options.inputs.empty() && options.outputs.empty() &&
        options.compares.empty() && !options.benchmark)
      return 0;
  }

  // Inputs.
  std::vector<std::string> inputFiles =
      assignSpecs("--input", options.inputs, inputs, "input");
  std::vector<std::string> missing;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputFiles[i].empty())
      missing.push_back(inputs[i].name);
  if (!missing.empty()) {
    std::string list;
    for (const std::string &name : missing)
      list += (list.empty() ? "'" : ", '") + name + "'";
    die("no --input for " + list + " (the model's inputs: " + nameList(inputs) +
        ")");
  }
  std::vector<TensorPtr> inputTensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string error;
    TensorPtr tensor = readTensorFile(inputFiles[i], error);
    if (!tensor)
      die("--input for '" + inputs[i].name + "': " + error);
    // numpy has no bfloat16 nor the narrow types: accept their stand-ins.
    tensor = adoptStandIn(std::move(tensor), inputs[i].info.dtype, error);
    if (!tensor)
      die(error);
    // The runtime would reject this too; here the message can name the file.
    if (tc_tensor_dtype(tensor.get()) != inputs[i].info.dtype)
      die("--input for '" + inputs[i].name + "': '" + inputFiles[i] +
          "' holds " + describeType(tensor.get()) + " but the model expects " +
          describeArg(inputs[i].info));
    inputTensors.push_back(std::move(tensor));
  }

  // Output destinations and expected values, resolved before running so that
  // a typo does not cost a long run.
  std::vector<std::vector<std::string>> outputFiles =
      resolveOutputs(options.outputs, outputs);
  std::vector<std::string> compareFiles =
      assignSpecs("--compare", options.compares, outputs, "output");
  std::vector<TensorPtr> expected(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (compareFiles[i].empty())
      continue;
    std::string error;
    expected[i] = readTensorFile(compareFiles[i], error);
    if (expected[i])
      expected[i] = adoptStandIn(std::move(expected[i]), outputs[i].info.dtype,
                                 error);
    if (!expected[i])
      die("--compare for '" + outputs[i].name + "': " + error);
  }

  Session session{module, device, {}, outputs.size()};
  for (const TensorPtr &tensor : inputTensors)
    session.inputs.push_back(tensor.get());
  std::vector<TensorPtr> results = runOnce(session);
  // The first run may have tuned the GPU kernels (--gpu-tuning=tune, or a
  // max-autotune model): say what that cost and found.
  tc_gpu_tune_report tuning;
  tc_status tuned = tc_device_gpu_tune_report(device, module, &tuning);
  if (tc_status_code(tuned) == TC_STATUS_NOT_FOUND) {
    tc_status_free(tuned);
  } else if (tuned) {
    std::fprintf(stderr,
                 "tc-run: warning: the first run could not tune the GPU "
                 "kernels: %s\n",
                 takeMessage(tuned).c_str());
  } else {
    std::printf("gpu tuning: %lld of %lld kernel keys timed in %lld runs "
                "(%.2f s%s), %lld changed, %lld from the table %s\n",
                static_cast<long long>(tuning.keys_tuned),
                static_cast<long long>(tuning.keys),
                static_cast<long long>(tuning.runs), tuning.seconds,
                tuning.budget_exhausted ? ", budget spent" : "",
                static_cast<long long>(tuning.keys_changed),
                static_cast<long long>(tuning.keys_from_table),
                tc_device_gpu_tuning_table(device));
  }
  // What the tunable kernels run (the table's choices, the first run's).
  size_t sites = tc_module_num_gpu_sites(module);
  if (sites && std::string(tc_device_spec(device)) != "cpu") {
    size_t alternatives = 0;
    for (size_t site = 0; site < sites; ++site)
      alternatives += tc_device_gpu_choice(device, module, site) >= 0;
    std::string table = tc_device_gpu_tuning_table(device);
    std::printf("gpu kernels: %zu tunable, %zu running an alternative "
                "(tuning table %s)\n",
                sites, alternatives, table.empty() ? "none" : table.c_str());
  }
  // --output and --compare then see the last timed run.
  if (options.profile && !options.benchmark)
    options.benchmark = 10;
  if (options.benchmark) {
    results = benchmark(session, options.warmup, options.benchmark,
                        options.profile);
    if (options.profile) {
      tc_module_set_profiling(module, 0);
      std::string error = printProfile(module, stdout);
      if (!error.empty())
        die("--profile: " + error);
      if (!options.profileJson.empty()) {
        std::FILE *json = std::fopen(options.profileJson.c_str(), "w");
        if (!json)
          die("--profile-json: cannot write '" + options.profileJson + "'");
        error = writeProfileJson(module, json);
        if (std::fclose(json) != 0 && error.empty())
          error = "cannot write '" + options.profileJson + "'";
        if (!error.empty())
          die("--profile-json: " + error);
      }
    }
    // Whether graphs took (--gpu-graphs, or a reduce-overhead model): a
    // model whose host code needs values from the GPU runs without.
    bool graphsWanted =
        options.gpuGraphs == 1 ||
        (options.gpuGraphs == -1 &&
         std::string(tc_module_mode(module)) == "reduce-overhead");
    if (graphsWanted && std::string(tc_device_spec(device)) != "cpu")
      std::printf("gpu graphs: %lld of %lld runs replayed a graph\n",
                  static_cast<long long>(tc_device_graph_runs(device)),
                  static_cast<long long>(1 + options.warmup + options.benchmark));
  }

  bool failed = false;
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (const std::string &file : outputFiles[i]) {
      std::string error;
      if (!writeNpy(file, results[i].get(), error))
        die("--output for '" + outputs[i].name + "': " + error);
    }
    if (expected[i]) {
      CompareResult result = compareTensors(results[i].get(), expected[i].get(),
                                            options.tolerance);
      std::printf("output '%s': %s\n", outputs[i].name.c_str(),
                  result.line.c_str());
      failed |= !result.ok;
    }
  }
  if (options.outputs.empty() && options.compares.empty() &&
      !options.benchmark) {
    for (size_t i = 0; i < outputs.size(); ++i)
      std::printf("output '%s': %s = %s\n", outputs[i].name.c_str(),
                  describeType(results[i].get()).c_str(),
                  formatValues(results[i].get(), 8).c_str());
  }

  return failed ? 1 : 0;
}
