// Run parameters <-> JSON (see run_params.hpp).
#include "gsflow/pipeline/run_params.hpp"

#include "gsflow/guidance/objective_catalog.hpp"

#include "gsflow/pipeline/run_schema.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace gsflow::pipeline {

namespace {
using nlohmann::json;

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw std::invalid_argument("run parameters: " + field + ": " + why);
}

// A field's JSON value as the schema's text, after checking its JSON type.
std::string field_text(const RunParam& row, const json& v) {
  switch (row.type) {
    case ParamType::integer:
      if (!v.is_number_integer()) bad(row.key, "expected an integer");
      return v.dump();
    case ParamType::real:
      if (!v.is_number()) bad(row.key, "expected a number");
      return v.dump();
    case ParamType::flag:
      if (!v.is_boolean()) bad(row.key, "expected true or false");
      return v.get<bool>() ? "true" : "false";
    case ParamType::text:
    case ParamType::choice:
      if (!v.is_string()) bad(row.key, "expected a string");
      return v.get<std::string>();
    case ParamType::list:
      break;  // read item by item (parse_run_params)
  }
  return {};
}

// The schema's text of a field as the JSON value of its type.
json field_json(const RunParam& row, const std::string& text) {
  switch (row.type) {
    case ParamType::integer:
      return text[0] == '-' ? json(std::stoll(text)) : json(std::stoull(text));
    case ParamType::real:
      return std::stod(text);
    case ParamType::flag:
      return text == "true";
    case ParamType::list:
      return json::parse(text);
    case ParamType::text:
    case ParamType::choice:
      break;
  }
  return text;
}
}  // namespace

std::pair<std::size_t, std::size_t> shard_range(std::size_t n, std::size_t shard,
                                                std::size_t shards) {
  if (shards == 0 || shard >= shards) throw std::invalid_argument("shard: index out of range");
  const std::size_t begin = n / shards * shard + std::min(shard, n % shards);
  const std::size_t count = n / shards + (shard < n % shards ? 1 : 0);
  return {begin, count};
}

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text,
                                                const std::string& field) {
  const auto slash = text.find('/');
  std::size_t i = 0, n = 0;
  const auto number = [](std::string_view s, std::size_t& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
  };
  if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), i) ||
      !number(std::string_view(text).substr(slash + 1), n) || n == 0 || i >= n)
    throw std::invalid_argument(field + ": '" + text +
                                "' is not I/N with 0 <= I < N (e.g. 0/4 ... 3/4)");
  return {i, n};
}

int resolved_steps(const RunParams& params) {
  if (params.sampler.steps > 0) return params.sampler.steps;
  int steps = kDefaultSteps;
  if (params.guidance.active()) {
    const auto* entry = guidance::find_objective_entry(params.guidance.terms.front().objective);
    steps = entry && entry->guided_steps ? *entry->guided_steps : kDefaultGuidedSteps;
  }
  return params.sampler.method == engine::Method::linear ? std::max(steps, kDefaultLinearSteps)
                                                         : steps;
}

GenerateRequest to_request(const RunParams& params) {
  GenerateRequest request;
  const auto [first, count] = shard_range(params.n, params.shard, params.shards);
  request.first = first;
  request.n = count;
  request.length = params.length;
  request.sampler = params.sampler;
  request.sampler.steps = resolved_steps(params);
  request.threads = params.threads;
  request.precision = params.precision;
  request.guidance = params.guidance;
  request.design = params.design;
  return request;
}

std::string run_params_json(const RunParams& p) {
  json out = json::object();
  const bool guided = !p.guidance.terms.empty();
  static const RunParams defaults;
  for (const auto& row : run_schema()) {
    if (row.guided && !guided) continue;
    const std::string value = row.get(p);
    if (row.optional && value == row.get(defaults)) continue;  // records without it read the same
    out[row.key] = field_json(row, value);
  }
  if (guided) {
    json terms = json::array();
    for (const auto& t : p.guidance.terms) terms.push_back({{"objective", t.objective}, {"weight", t.weight}});
    out["guide"] = terms;
  }
  return out.dump();
}

RunParams parse_run_params(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("run parameters: not JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument("run parameters: expected a JSON object");
  RunParams p;
  for (const auto& row : run_schema())  // keys that came later: what older records were made with
    if (!row.absent.empty()) row.set(p, row.absent, "run parameters: " + row.key);
  for (const auto& [key, value] : j.items()) {
    if (key == "guide") continue;
    const RunParam* row = find_run_param(key);
    if (row == nullptr) bad(key, "unknown field");
    if (row->type == ParamType::list) {
      if (!value.is_array()) bad(key, "expected an array of strings");
      for (const auto& item : value) {
        if (!item.is_string()) bad(key, "expected an array of strings");
        row->set(p, item.get<std::string>(), "run parameters: " + key);
      }
      continue;
    }
    row->set(p, field_text(*row, value), "run parameters: " + key);
  }
  auto& g = p.guidance;
  if (const auto it = j.find("guide"); it != j.end()) {
    if (!it->is_array()) bad("guide", "expected an array of {objective, weight}");
    for (const auto& t : *it) {
      if (!t.is_object() || t.size() != 2 || !t.contains("objective") || !t.contains("weight") ||
          !t["objective"].is_string() || !t["weight"].is_number())
        bad("guide", "expected {\"objective\": NAME, \"weight\": W} entries");
      const guidance::GuideTerm term{t["objective"].get<std::string>(), t["weight"].get<double>()};
      if (term.objective.empty() || !std::isfinite(term.weight))
        bad("guide", t.dump() + " is not possible (an objective name and a finite weight)");
      g.terms.push_back(term);
    }
  }
  check_run_params(p);
  return p;
}

}  // namespace gsflow::pipeline
