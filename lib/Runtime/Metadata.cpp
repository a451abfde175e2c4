//===- Metadata.cpp - parse the tc_module_metadata_v1 text
//------------------===//
//
// Strict on purpose: the text is written by tc-compile, so anything that does
// not follow the grammar is a compiler bug best reported at load time, with
// the offending line, rather than a mystery at run time.
//
//===----------------------------------------------------------------------===//

#include "Metadata.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace tc::rt;

namespace {

bool isPlainNameChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || std::strchr("_.:/-", c) != nullptr;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') // tolerated, though the grammar says upper case
    return c - 'a' + 10;
  return -1;
}

std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t space = line.find(' ', start);
    fields.push_back(line.substr(start, space - start));
    if (space == std::string::npos)
      return fields;
    start = space + 1;
  }
}

// A decimal integer without sign, leading '+' or trailing junk.
bool parseNonNegative(const std::string &text, int64_t &value) {
  if (text.empty() || text.size() > 18)
    return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + (c - '0');
  }
  return true;
}

// Parses "input|output <name> <dtype> <rank> <dim>*".
bool parseArg(const std::vector<std::string> &fields, ArgSignature &arg,
              std::string &error) {
  if (fields.size() < 4) {
    error = "expected '" + fields[0] + " <name> <dtype> <rank> <dim>*'";
    return false;
  }
  if (!unescapeName(fields[1], arg.name)) {
    error = "malformed name '" + fields[1] + "'";
    return false;
  }
  if (tc_status status = tc_dtype_from_name(fields[2].c_str(), &arg.dtype)) {
    error = tc_status_message(status);
    tc_status_free(status);
    return false;
  }
  int64_t rank;
  if (!parseNonNegative(fields[3], rank)) {
    error = "malformed rank '" + fields[3] + "'";
    return false;
  }
  if (static_cast<size_t>(rank) != fields.size() - 4) {
    error = "rank is " + fields[3] + " but " +
            std::to_string(fields.size() - 4) + " dims follow";
    return false;
  }
  for (size_t i = 4; i < fields.size(); ++i) {
    const std::string &dim = fields[i];
    int64_t extent;
    if (!dim.empty() && dim[0] == '?') {
      std::string symbol;
      // The symbol is escaped like names; "?" and "?%" are both anonymous.
      if (dim.size() > 1 && !unescapeName(dim.substr(1), symbol)) {
        error = "malformed dynamic dim '" + dim + "'";
        return false;
      }
      arg.dims.push_back(-1);
      arg.symbols.push_back(symbol);
    } else if (parseNonNegative(dim, extent)) {
      arg.dims.push_back(extent);
      arg.symbols.emplace_back();
    } else {
      error = "malformed dim '" + dim +
              "' (expected an extent, '?' or "
              "'?<symbol>')";
      return false;
    }
  }
  return true;
}

} // namespace

bool tc::rt::unescapeName(const std::string &escaped, std::string &out) {
  out.clear();
  if (escaped == "%")
    return true;
  if (escaped.empty())
    return false;
  for (size_t i = 0; i < escaped.size(); ++i) {
    char c = escaped[i];
    if (c == '%') {
      if (i + 2 >= escaped.size())
        return false;
      int hi = hexValue(escaped[i + 1]);
      int lo = hexValue(escaped[i + 2]);
      if (hi < 0 || lo < 0)
        return false;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (isPlainNameChar(c)) {
      out.push_back(c);
    } else {
      return false;
    }
  }
  return true;
}

void ModuleSignature::finalize() {
  for (auto *args : {&inputs, &outputs}) {
    for (ArgSignature &arg : *args) {
      arg.symbolPtrs.clear();
      for (const std::string &symbol : arg.symbols)
        arg.symbolPtrs.push_back(symbol.c_str());
    }
  }
}

bool tc::rt::parseMetadata(const char *text, ModuleSignature &signature,
                           std::string &error) {
  std::string all(text);
  size_t lineNumber = 0;
  size_t pos = 0;
  bool sawName = false, sawMode = false;
  auto fail = [&](const std::string &line, const std::string &what) {
    error = "line " + std::to_string(lineNumber) + " '" + line + "': " + what;
    return false;
  };
  while (pos < all.size()) {
    size_t end = all.find('\n', pos);
    if (end == std::string::npos)
      end = all.size();
    std::string line = all.substr(pos, end - pos);
    pos = end + 1;
    ++lineNumber;
    if (lineNumber == 1) {
      if (line != "tc-module 1")
        return fail(line, "expected the header 'tc-module 1'");
      continue;
    }
    if (line.empty()) {
      // Tolerate trailing blank lines only.
      if (all.find_first_not_of('\n', pos) == std::string::npos)
        break;
      return fail(line, "empty line");
    }
    std::vector<std::string> fields = splitFields(line);
    const std::string &kind = fields[0];
    std::string what;
    if (kind == "name") {
      if (sawName)
        return fail(line, "second 'name' record");
      if (fields.size() != 2 || !unescapeName(fields[1], signature.name))
        return fail(line, "expected 'name <escaped-name>'");
      sawName = true;
    } else if (kind == "input" || kind == "output") {
      ArgSignature arg;
      if (!parseArg(fields, arg, what))
        return fail(line, what);
      (kind == "input" ? signature.inputs : signature.outputs)
          .push_back(std::move(arg));
    } else if (kind == "target") {
      if (fields.size() < 2)
        return fail(line, "expected 'target <name>'");
      signature.targets.push_back(line.substr(7));
    } else if (kind == "bucket") {
      std::string bucket;
      for (size_t f = 1; f < fields.size(); ++f) {
        size_t equals = fields[f].find('=');
        std::string name;
        const std::string extent =
            equals == std::string::npos ? "" : fields[f].substr(equals + 1);
        if (equals == std::string::npos ||
            !unescapeName(fields[f].substr(0, equals), name) || extent.empty() ||
            extent.find_first_not_of("0123456789") != std::string::npos)
          return fail(line, "expected 'bucket <escaped-name>=<extent>...'");
        bucket += (bucket.empty() ? "" : ",") + name + "=" + extent;
      }
      if (bucket.empty())
        return fail(line, "expected 'bucket <escaped-name>=<extent>...'");
      signature.shapeBuckets.push_back(std::move(bucket));
    } else if (kind == "compiler") {
      if (fields.size() < 2 || !signature.compiler.empty())
        return fail(line, "expected one 'compiler <description>'");
      signature.compiler = line.substr(9);
    } else if (kind == "cpu") {
      if (fields.size() < 2 || !signature.cpuName.empty())
        return fail(line, "expected one 'cpu <name> <feature>...'");
      signature.cpuName = fields[1];
      signature.cpuFeatures.assign(fields.begin() + 2, fields.end());
    } else if (kind == "mode") {
      if (sawMode || fields.size() != 2 ||
          (fields[1] != "default" && fields[1] != "reduce-overhead" &&
           fields[1] != "max-autotune"))
        return fail(line, "expected one 'mode default|reduce-overhead|"
                          "max-autotune'");
      signature.mode = fields[1];
      sawMode = true;
    } else {
      return fail(line, "unknown record '" + kind + "'");
    }
  }
  if (lineNumber == 0) {
    error = "empty metadata (expected the header 'tc-module 1')";
    return false;
  }
  if (!sawName) {
    error = "no 'name' record";
    return false;
  }
  signature.finalize();
  return true;
}
