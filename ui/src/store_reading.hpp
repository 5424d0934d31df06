// Small helpers of the main window's files: reading the run store from the UI thread, and
// std::string to QString.
#pragma once

#include <QString>
#include <string>

#include "gsflow/storage/run_store.hpp"

namespace gsflow::ui {

inline QString text(const std::string& s) { return QString::fromStdString(s); }

// A read-only connection that creates nothing (a missing file is an error naming it). The worker
// writes through its own connection; SQLite's WAL lets both go on at once.
inline storage::RunStore readStore(const QString& file) {
  return storage::RunStore(file.toStdString(), {.read_only = true, .create = false});
}

}  // namespace gsflow::ui
