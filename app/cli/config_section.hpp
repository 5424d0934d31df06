// Strict reading of JSON config files (`gsflow train`, `gsflow train-classifier`): the shared
// reader of gsflow/models/strict_json.hpp, naming config settings ("FILE: train.lr ...").
#pragma once

#include <string>

#include "gsflow/models/strict_json.hpp"

namespace gsflow::app {

using Section = models::StrictJson<std::invalid_argument>;

// Parses a config file as JSON; throws std::invalid_argument naming the file when it cannot be
// opened or is not valid JSON.
inline nlohmann::json read_config_json(const std::string& file) {
  return models::read_json_file(file, "the config file");
}

}  // namespace gsflow::app
