// Regression driver for the fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput once on
// every file named on the command line or found (recursively, in sorted order) in a folder named
// there. A crash or abort names the input; an empty corpus is an error (a wrong path, not a pass).
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

namespace fs = std::filesystem;

// The input being run, kept as a C string so that the signal handler can print it safely.
char g_current[4096] = "";

void say_current() {
  const char prefix[] = "corpus_main: failed on input ";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, prefix, sizeof prefix - 1);
  n = ::write(STDERR_FILENO, g_current, std::strlen(g_current));
  n = ::write(STDERR_FILENO, "\n", 1);
}

extern "C" void on_signal(int sig) {
  say_current();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void on_terminate() {
  say_current();
  if (const auto e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "corpus_main: uncaught exception: %s\n", ex.what());
    } catch (...) {
      std::fprintf(stderr, "corpus_main: uncaught exception of unknown type\n");
    }
  }
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path arg = argv[i];
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      for (const auto& entry : fs::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else if (fs::is_regular_file(arg, ec)) {
      inputs.push_back(arg);
    } else {
      std::fprintf(stderr, "corpus_main: %s: no such file or folder\n", argv[i]);
      return 2;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "corpus_main: no inputs found\n");
    return 2;
  }
  std::sort(inputs.begin(), inputs.end());

  std::set_terminate(on_terminate);
  for (const int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_signal);

  for (const fs::path& input : inputs) {
    std::snprintf(g_current, sizeof g_current, "%s", input.c_str());
    std::ifstream f(input, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(f)),
                                  std::istreambuf_iterator<char>());
    if (!f.eof() && f.fail()) {
      std::fprintf(stderr, "corpus_main: cannot read %s\n", input.c_str());
      return 2;
    }
    // Copied into an exact-size heap block so that AddressSanitizer sees reads past the end.
    std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[bytes.size()]);
    std::memcpy(copy.get(), bytes.data(), bytes.size());
    LLVMFuzzerTestOneInput(copy.get(), bytes.size());
  }
  std::printf("corpus_main: %zu inputs ran without a finding\n", inputs.size());
  return 0;
}
