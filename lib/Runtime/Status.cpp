//===- Status.cpp - tc_status
//-----------------------------------------------===//

#include "Internal.h"

#include <new>
#include <string>
#include <system_error>

namespace {
// Returned when allocating an error itself fails: tc_status_free recognises
// it and does not free it, so callers need no special case.
tc_status_s outOfMemoryStatus{TC_STATUS_OUT_OF_MEMORY,
                              "out of memory while reporting an error"};
} // namespace

tc_status tc::rt::makeStatus(tc_status_code_t code, std::string message) {
  tc_status status = new (std::nothrow) tc_status_s{code, std::move(message)};
  return status ? status : &outOfMemoryStatus;
}

tc_status tc::rt::statusFromException(const char *function,
                                      std::exception_ptr error) noexcept {
  try {
    try {
      std::rethrow_exception(error);
    } catch (const std::bad_alloc &) {
      return makeStatus(TC_STATUS_OUT_OF_MEMORY,
                        std::string(function) + ": out of memory");
    } catch (const std::system_error &failure) {
      return makeStatus(TC_STATUS_RESOURCE_EXHAUSTED,
                        std::string(function) + ": " + failure.what());
    } catch (const std::exception &failure) {
      return makeStatus(TC_STATUS_INTERNAL, std::string(function) +
                                                ": internal error: " +
                                                failure.what());
    } catch (...) {
      return makeStatus(TC_STATUS_INTERNAL,
                        std::string(function) + ": unknown internal error");
    }
  } catch (...) {
    // Building the message itself failed: memory is gone.
    return &outOfMemoryStatus;
  }
}

extern "C" {

tc_status_code_t tc_status_code(tc_status status) {
  return status ? status->code : TC_STATUS_OK;
}

const char *tc_status_message(tc_status status) {
  return status ? status->message.c_str() : "";
}

void tc_status_free(tc_status status) {
  if (status != &outOfMemoryStatus)
    delete status;
}

const char *tc_status_code_name(tc_status_code_t code) {
  switch (code) {
  case TC_STATUS_OK:
    return "OK";
  case TC_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case TC_STATUS_NOT_FOUND:
    return "NOT_FOUND";
  case TC_STATUS_UNAVAILABLE:
    return "UNAVAILABLE";
  case TC_STATUS_INCOMPATIBLE:
    return "INCOMPATIBLE";
  case TC_STATUS_MALFORMED:
    return "MALFORMED";
  case TC_STATUS_OUT_OF_MEMORY:
    return "OUT_OF_MEMORY";
  case TC_STATUS_INVALID_VALUE:
    return "INVALID_VALUE";
  case TC_STATUS_INTERNAL:
    return "INTERNAL";
  case TC_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  }
  return "UNKNOWN";
}

} // extern "C"
