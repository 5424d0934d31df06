// Files a command writes (FASTA, CSV, JSON): never the run store itself, and never half written.
#pragma once

#include <fstream>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace gsflow::app {

// "-", the name every output option takes for standard output (and every FASTA input for standard
// input: engine::FastaReader).
inline constexpr const char* kStdio = "-";

// Throws std::invalid_argument naming the flags when more than one of `outputs` (flag, path) is
// "-": they would be interleaved on standard output. A report a command prints on stdout anyway
// (generate --json) counts as {"--json", "-"}.
void refuse_shared_stdout(const std::vector<std::pair<std::string, std::string>>& outputs);

// Throws std::invalid_argument "FLAG: FILE is the run store ..." when `out` names the store `db`
// or its -wal / -shm file: by file identity when both exist (links, ./ and other spellings), by
// absolute path otherwise. "-" (stdout) and "" pass.
void refuse_store_as_output(const std::string& out, const std::string& db, const std::string& flag);

// An output written to a temporary file beside `path` and renamed over it by commit(), so that
// a failure or an interrupt leaves the old file (or none), never a truncated one. "-" writes to
// stdout directly; a device or pipe (/dev/null, a FIFO) is written in place. An existing file is
// replaced (through a symbolic link: the file it points to), and the command says so on stderr.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream();
  // Flushes, checks and renames into place. Throws std::runtime_error naming the file.
  void commit();

 private:
  std::string path_, temp_;
  std::string target_;   // the file renamed over: path_, or where its symbolic link points
  bool direct_ = false;  // a device or pipe: written in place, nothing renamed
  std::ofstream file_;
  bool committed_ = false;
};

}  // namespace gsflow::app
