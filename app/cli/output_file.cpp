// Output files (see output_file.hpp).
#include "output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace gsflow::app {

namespace fs = std::filesystem;

void refuse_store_as_output(const std::string& out, const std::string& db, const std::string& flag) {
  if (out.empty() || out == "-" || db.empty() || db == ":memory:") return;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::string store = db + suffix;
    struct stat a {}, b {};
    const bool same = stat(out.c_str(), &a) == 0 && stat(store.c_str(), &b) == 0
                          ? a.st_dev == b.st_dev && a.st_ino == b.st_ino
                          : fs::weakly_canonical(fs::absolute(out)) ==
                                fs::weakly_canonical(fs::absolute(store));
    if (same)
      throw std::invalid_argument(flag + ": " + out + " is the run store" +
                                  (*suffix ? std::string(" (its ") + suffix + " file)" : "") +
                                  "; writing there would destroy it. Choose another file");
  }
}

void refuse_shared_stdout(const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string flags;
  int count = 0;
  for (const auto& [flag, path] : outputs)
    if (path == kStdio) flags += (count++ ? " and " : "") + flag;
  if (count > 1)
    throw std::invalid_argument(flags + (count == 2 ? " would both" : " would all") +
                                " write to standard output (-): send all but one to a file");
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") return;
  std::error_code ec;
  const fs::file_status status = fs::status(path_, ec);  // follows symbolic links
  if (fs::is_directory(status)) throw std::runtime_error(path_ + ": is a folder");
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device, pipe or socket (/dev/null, a FIFO, /dev/stdout): written in place. Renaming a
    // file over it would replace the device itself.
    direct_ = true;
    file_.open(path_, std::ios::binary);
    if (!file_) throw std::runtime_error(path_ + ": cannot open for writing");
    return;
  }
  // A symbolic link to a file keeps being a link: the file it points to is replaced.
  target_ = fs::exists(status) ? fs::canonical(path_, ec).string() : path_;
  if (target_.empty()) target_ = path_;
  const fs::path p(target_);
  temp_ = (p.parent_path() / ("." + p.filename().string() + ".tmp-" + std::to_string(getpid())))
              .string();
  file_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!file_) throw std::runtime_error(path_ + ": cannot create the output file");
}

OutputFile::~OutputFile() {
  if (!committed_ && !temp_.empty()) {
    file_.close();
    std::remove(temp_.c_str());
  }
}

std::ostream& OutputFile::stream() { return path_ == "-" ? std::cout : file_; }

void OutputFile::commit() {
  std::ostream& out = stream();
  out.flush();
  if (!out) throw std::runtime_error((path_ == "-" ? "stdout" : path_) + ": write failed");
  if (path_ == "-") return;
  file_.close();
  if (!file_) throw std::runtime_error(path_ + ": write failed");
  if (direct_) {
    committed_ = true;
    return;
  }
  std::error_code ec;
  const bool replacing = fs::exists(target_, ec);
  if (std::rename(temp_.c_str(), target_.c_str()) != 0)
    throw std::runtime_error(path_ + ": cannot write (rename of the finished file failed)");
  committed_ = true;
  if (replacing) std::cerr << "gsflow: replaced the existing " << path_ << "\n";
}

}  // namespace gsflow::app
