//===- TensorFile.cpp - file helpers shared by tc-run's readers
//--------------===//

#include "TensorFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace tc::run;

std::string tc::run::takeMessage(tc_status status) {
  std::string message = tc_status_message(status);
  tc_status_free(status);
  return message;
}

bool tc::run::readFile(const std::string &path, std::string &contents,
                       std::string &error) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(info.st_mode)) {
    error = "cannot read '" + path + "': it is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  contents = buffer.str();
  return true;
}

static bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TensorPtr tc::run::readTensorFile(const std::string &path, std::string &error) {
  if (endsWith(path, ".npy"))
    return readNpy(path, error);
  if (endsWith(path, ".pb")) {
    std::string ignoredName;
    return readTensorProto(path, ignoredName, error);
  }
  error = "'" + path + "': unknown file type (expected .npy or .pb)";
  return nullptr;
}
