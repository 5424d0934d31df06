// Run parameters <-> JSON (see run_params.hpp).
#include "gsflow/guidance/run_params.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

namespace gsflow::guidance {

namespace {
using nlohmann::json;

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw std::invalid_argument("run parameters: " + field + ": " + why);
}

template <typename T>
void read(const json& j, const char* key, T& out) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  try {
    if constexpr (std::is_same_v<T, bool>) {
      if (!it->is_boolean()) bad(key, "expected true or false");
    } else if constexpr (std::is_integral_v<T>) {
      if (!it->is_number_integer()) bad(key, "expected an integer");
      if constexpr (std::is_unsigned_v<T>)
        if (!it->is_number_unsigned()) bad(key, "must not be negative");
      // get<T>() would narrow silently: steps 4294967396 would read as 100.
      using limits = std::numeric_limits<T>;
      const bool fits = it->is_number_unsigned()
                            ? std::cmp_less_equal(it->get<std::uint64_t>(), limits::max())
                            : std::cmp_greater_equal(it->get<std::int64_t>(), limits::min()) &&
                                  std::cmp_less_equal(it->get<std::int64_t>(), limits::max());
      if (!fits) bad(key, it->dump() + " is out of range");
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!it->is_number()) bad(key, "expected a number");
    } else {
      if (!it->is_string()) bad(key, "expected a string");
    }
    out = it->get<T>();
  } catch (const json::exception& e) {
    bad(key, e.what());
  }
}

template <typename T>
void check(bool ok, const char* key, const T& value, const char* rule) {
  if (!ok) bad(key, nlohmann::json(value).dump() + " is not possible (" + rule + ")");
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

GenerateRequest to_request(const RunParams& params) {
  GenerateRequest request;
  const auto [first, count] = shard_range(params.n, params.shard, params.shards);
  request.first = first;
  request.n = count;
  request.length = params.length;
  request.sampler = params.sampler;
  request.threads = params.threads;
  request.guidance = params.guidance;
  return request;
}

std::string run_params_json(const RunParams& p) {
  const auto& s = p.sampler;
  const json j = {{"model", p.model},
                  {"n", p.n},
                  {"length", p.length},
                  {"shard", p.shard},
                  {"shards", p.shards},
                  {"threads", p.threads},
                  {"consistent", p.consistent},
                  {"method", engine::method_name(s.method)},
                  {"integrator", engine::integrator_name(s.integrator)},
                  {"steps", s.steps},
                  {"decode", engine::decode_name(s.decode)},
                  {"temperature", s.temperature},
                  {"start_scale", s.start_scale},
                  {"reinject", s.reinject},
                  {"corrector_steps", s.corrector_steps},
                  {"snr", s.snr},
                  {"batch", s.batch},
                  {"seed", s.seed},
                  {"frames_every", s.frames_every}};
  json out = j;
  const auto& g = p.guidance;
  if (!g.terms.empty()) {
    json terms = json::array();
    for (const auto& t : g.terms) terms.push_back({{"objective", t.objective}, {"weight", t.weight}});
    out["guide"] = terms;
    out["gamma"] = g.gamma;
    out["gamma_schedule"] = gamma_schedule_name(g.schedule);
    out["guide_samples"] = g.samples;
    out["guide_from"] = guide_from_name(g.from);
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
  static const std::set<std::string> known = {
      "model",      "n",           "length",      "shard",           "shards", "threads",
      "consistent", "method",      "integrator",  "steps",           "decode", "temperature",
      "start_scale", "reinject",   "corrector_steps", "snr",         "batch",  "seed",
      "frames_every", "guide",     "gamma",       "gamma_schedule",  "guide_samples",
      "guide_from"};
  for (const auto& [key, value] : j.items())
    if (!known.count(key)) bad(key, "unknown field");

  RunParams p;
  auto& s = p.sampler;
  std::string method = engine::method_name(s.method);
  std::string integrator = engine::integrator_name(s.integrator);
  std::string decode = engine::decode_name(s.decode);
  read(j, "model", p.model);
  read(j, "n", p.n);
  read(j, "length", p.length);
  read(j, "shard", p.shard);
  read(j, "shards", p.shards);
  read(j, "threads", p.threads);
  read(j, "consistent", p.consistent);
  read(j, "method", method);
  read(j, "integrator", integrator);
  read(j, "steps", s.steps);
  read(j, "decode", decode);
  read(j, "temperature", s.temperature);
  read(j, "start_scale", s.start_scale);
  read(j, "reinject", s.reinject);
  read(j, "corrector_steps", s.corrector_steps);
  read(j, "snr", s.snr);
  read(j, "batch", s.batch);
  read(j, "seed", s.seed);
  read(j, "frames_every", s.frames_every);
  auto& g = p.guidance;
  std::string schedule = gamma_schedule_name(g.schedule), from = guide_from_name(g.from);
  if (const auto it = j.find("guide"); it != j.end()) {
    if (!it->is_array()) bad("guide", "expected an array of {objective, weight}");
    for (const auto& t : *it) {
      if (!t.is_object() || t.size() != 2 || !t.contains("objective") || !t.contains("weight"))
        bad("guide", "expected {\"objective\": NAME, \"weight\": W} entries");
      GuideTerm term;
      read(t, "objective", term.objective);
      read(t, "weight", term.weight);
      check(!term.objective.empty() && std::isfinite(term.weight), "guide", t,
            "an objective name and a finite weight");
      g.terms.push_back(term);
    }
  }
  read(j, "gamma", g.gamma);
  read(j, "gamma_schedule", schedule);
  read(j, "guide_samples", g.samples);
  read(j, "guide_from", from);
  g.schedule = parse_gamma_schedule(schedule, "run parameters: gamma_schedule");
  g.from = parse_guide_from(from, "run parameters: guide_from");
  check(g.gamma >= 0 && g.gamma < 1e9, "gamma", g.gamma, "0 or more");
  check(g.samples >= 1 && g.samples <= 64, "guide_samples", g.samples, "1..64");
  s.method = engine::parse_method(method, "run parameters: method");
  s.integrator = engine::parse_integrator(integrator, "run parameters: integrator");
  s.decode = engine::parse_decode(decode, "run parameters: decode");

  check(!p.model.empty(), "model", p.model, "a name or file");
  check(p.n >= 1, "n", p.n, "at least 1");
  check(p.shards >= 1, "shards", p.shards, "at least 1");
  check(p.shard < p.shards, "shard", p.shard, "below shards");
  check(p.threads >= 1 && p.threads <= 1024, "threads", p.threads, "1..1024");
  check(s.steps >= 1 && s.steps <= 1000000, "steps", s.steps, "1..1000000");
  check(s.batch >= 1, "batch", s.batch, "at least 1");
  check(s.temperature > 0 && s.temperature < 1e6, "temperature", s.temperature, "positive");
  check(s.start_scale > 0 && s.start_scale < 1e6, "start_scale", s.start_scale, "positive");
  check(s.reinject >= 0 && s.reinject < 1e6, "reinject", s.reinject, "not negative");
  check(s.corrector_steps >= 0 && s.corrector_steps <= 64, "corrector_steps", s.corrector_steps,
        "0..64");
  check(s.snr > 0 && s.snr < 1e6, "snr", s.snr, "positive");
  check(s.frames_every >= 0, "frames_every", s.frames_every, "0 = none, or every n-th step");
  return p;
}

}  // namespace gsflow::guidance
