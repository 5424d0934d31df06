// Typicality profiles on disk (see typicality_file.hpp).
#include "gsflow/pipeline/typicality_file.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "gsflow/engine/errors.hpp"

namespace gsflow::pipeline {

std::string profile_path(const std::string& checkpoint) {
  std::filesystem::path p(checkpoint);
  return (p.parent_path() / (p.stem().string() + ".profile.json")).string();
}

void write_profile(const std::string& file, const engine::TypicalityProfile& profile) {
  nlohmann::json j = {{"letters", profile.letters},     {"names", profile.names},
                      {"low", profile.low},             {"high", profile.high},
                      {"tail", profile.tail},           {"reference_size", profile.reference_size}};
  std::ofstream out(file);
  out << j.dump(2) << "\n";
  if (!out) throw engine::InputError(file, 0, "cannot write the profile");
}

engine::TypicalityProfile read_profile(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw engine::InputError(file, 0, "cannot read the profile");
  try {
    const auto j = nlohmann::json::parse(in);
    engine::TypicalityProfile p;
    p.letters = j.at("letters").get<std::string>();
    p.names = j.at("names").get<std::vector<std::string>>();
    p.low = j.at("low").get<std::vector<double>>();
    p.high = j.at("high").get<std::vector<double>>();
    p.tail = j.at("tail").get<double>();
    p.reference_size = j.at("reference_size").get<std::size_t>();
    if (p.names != engine::sequence_stat_names(p.letters) || p.low.size() != p.names.size() ||
        p.high.size() != p.names.size())
      throw engine::InputError(file, 0, "names, low and high do not match the letters' statistics");
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw engine::InputError(file, 0, std::string("not a typicality profile: ") + e.what());
  }
}

std::optional<engine::TypicalityProfile> profile_for(const std::string& checkpoint) {
  const std::string file = profile_path(checkpoint);
  if (!std::filesystem::exists(file)) return std::nullopt;
  return read_profile(file);
}

}  // namespace gsflow::pipeline
