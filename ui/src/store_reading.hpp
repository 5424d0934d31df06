// Small helpers of the main window's files: reading the run store from the UI thread, a model's
// typicality profile, and std::string to QString.
#pragma once

#include <QString>
#include <optional>
#include <string>

#include "gsflow/pipeline/typicality_file.hpp"
#include "gsflow/storage/run_store.hpp"

namespace gsflow::ui {

inline QString text(const std::string& s) { return QString::fromStdString(s); }

// A read-only connection that creates nothing (a missing file is an error naming it). The worker
// writes through its own connection; SQLite's WAL lets both go on at once.
inline storage::RunStore readStore(const QString& file) {
  return storage::RunStore(file.toStdString(), {.read_only = true, .create = false});
}

// The typicality profile beside checkpoint `model` (NAME.profile.json), std::nullopt when there is
// none or it cannot be read (the results then carry no composition warnings).
inline std::optional<engine::TypicalityProfile> typicalityOf(const std::string& model) {
  try {
    return pipeline::profile_for(model);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace gsflow::ui
