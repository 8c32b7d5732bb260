// parlab test fake, in the shape of NVIDIA cuda-samples' Common/helper_string.h (this
// project's own code, not NVIDIA's): command-line helpers that helper_cuda.h uses.
#ifndef PARLAB_FAKE_HELPER_STRING_H_
#define PARLAB_FAKE_HELPER_STRING_H_

#include <stdlib.h>
#include <string.h>

// "-name" or "--name" or "-name=value" among argv.
inline bool checkCmdLineFlag(const int argc, const char** argv, const char* name) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    while (*arg == '-') ++arg;
    const size_t length = strlen(name);
    if (strncmp(arg, name, length) == 0 && (arg[length] == '\0' || arg[length] == '=')) return true;
  }
  return false;
}

// The integer after "-name=".
inline int getCmdLineArgumentInt(const int argc, const char** argv, const char* name) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    while (*arg == '-') ++arg;
    const size_t length = strlen(name);
    if (strncmp(arg, name, length) == 0) return atoi(arg + length);
  }
  return 0;
}

#endif  // PARLAB_FAKE_HELPER_STRING_H_
