// The run schema against its front ends: `gsflow generate`'s options (app/cli/run_options.cpp)
// and the run-parameter JSON accept exactly the schema's range for every parameter, and refuse
// just outside it; choices accept the schema's names only. (The studio's form: tests/ui.)
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gsflow/pipeline/run_params.hpp"
#include "gsflow/pipeline/run_schema.hpp"
#include "run_options.hpp"

namespace gsflow::pipeline {
namespace {

std::string text(const RunParam& row, double v) {
  if (row.type == ParamType::integer) return std::to_string(static_cast<long long>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Parses `gsflow generate FLAG VALUE`; true when accepted. `out` gets the parameters.
bool cli_accepts(const std::string& flag, const std::string& value, RunParams& out) {
  CLI::App app;
  auto* cmd = app.add_subcommand("generate");
  out = RunParams{};
  app::add_run_options(*cmd, out);
  std::vector<std::string> args = {value, flag, "generate"};  // CLI11 parses a reversed vector
  try {
    app.parse(args);
  } catch (const CLI::ParseError&) {
    return false;
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

bool json_accepts(const RunParam& row, const std::string& value) {
  const std::string quoted = row.type == ParamType::choice ? "\"" + value + "\"" : value;
  try {
    // A shard index needs as many shards (shard < shards is checked across fields).
    const std::string shards = row.key == "shard" ? ", \"shards\": 1000000" : "";
    parse_run_params("{\"" + row.key + "\": " + quoted + shards + ", \"guide\": []}");
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

// Values just outside [min, max] for a numeric row (none where the range is open).
std::vector<double> outside(const RunParam& row) {
  std::vector<double> v;
  const double step = row.type == ParamType::integer ? 1.0 : std::max(1e-9, row.max * 1e-6);
  if (row.min == std::numeric_limits<double>::min())
    v.push_back(0.0);
  else if (row.min > -1e300)
    v.push_back(row.type == ParamType::integer ? row.min - 1 : row.min - std::max(1e-9, std::abs(row.min) * 1e-6));
  if (!std::isinf(row.max)) v.push_back(row.max + step);
  return v;
}

TEST(RunSchema, CliAndJsonTakeExactlyTheSchemasRange) {
  int checked = 0;
  for (const auto& row : run_schema()) {
    if (row.type != ParamType::integer && row.type != ParamType::real) continue;
    SCOPED_TRACE(row.key);
    const double lo = row.min == std::numeric_limits<double>::min() ? 1e-300 : row.min;
    const double hi = std::isinf(row.max) ? 1e6 : row.max;
    for (const double v : {lo, hi}) {
      EXPECT_TRUE(json_accepts(row, text(row, v))) << text(row, v);
      if (!row.cli) continue;
      RunParams p;
      ASSERT_TRUE(cli_accepts(row.flag(), text(row, v), p)) << text(row, v);
      EXPECT_EQ(std::stod(row.get(p)), std::stod(text(row, v)));
    }
    for (const double v : outside(row)) {
      EXPECT_FALSE(json_accepts(row, text(row, v))) << text(row, v);
      RunParams p;
      if (row.cli) {
        EXPECT_FALSE(cli_accepts(row.flag(), text(row, v), p)) << text(row, v);
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

TEST(RunSchema, ChoicesTakeTheSchemasNamesOnly) {
  int checked = 0;
  for (const auto& row : run_schema()) {
    if (row.type != ParamType::choice) continue;
    SCOPED_TRACE(row.key);
    for (const auto& name : row.choices) {
      RunParams p;
      ASSERT_TRUE(cli_accepts(row.flag(), name, p));
      EXPECT_EQ(row.get(p), name);
      EXPECT_TRUE(json_accepts(row, name));
    }
    RunParams p;
    EXPECT_FALSE(cli_accepts(row.flag(), "nonsense", p));
    EXPECT_FALSE(json_accepts(row, "nonsense"));
    ++checked;
  }
  EXPECT_EQ(checked, 9);  // method, integrator, time_grid, precision, decode, gamma_schedule,
                         // guidance_method, guide_from, fixed_hold
}

TEST(RunSchema, EveryFieldRoundTripsThroughJsonAndText) {
  RunParams p;
  for (const auto& row : run_schema()) {
    // Texts and list items: letters (templates, starts, omitted letters take only those).
    std::string v = row.type == ParamType::choice ? row.choices.back()
                    : row.type == ParamType::flag ? "true"
                    : row.type == ParamType::text || row.type == ParamType::list
                        ? "ACGTN"
                        : text(row, std::isinf(row.max) ? 7 : row.max);
    row.set(p, v, row.key);
    if (row.type == ParamType::list) row.set(p, "GGN", row.key);  // lists keep their order
  }
  p.shard = 0;  // shard < shards
  p.guidance.terms = {{"gc", 1.0}};
  const RunParams q = parse_run_params(run_params_json(p));
  for (const auto& row : run_schema()) EXPECT_EQ(row.get(q), row.get(p)) << row.key;
}

TEST(RunSchema, SeedTakesEveryUnsigned64BitValueAndNothingElse) {
  RunParams p;
  EXPECT_TRUE(cli_accepts("--seed", "18446744073709551615", p));
  EXPECT_EQ(p.sampler.seed, 18446744073709551615ull);
  EXPECT_FALSE(cli_accepts("--seed", "18446744073709551616", p));
  EXPECT_FALSE(cli_accepts("--seed", "-1", p));
  EXPECT_FALSE(cli_accepts("--seed", "1.5", p));
}

}  // namespace
}  // namespace gsflow::pipeline

namespace gsflow::pipeline {
namespace {

// The common flags have one-letter aliases that set the same field (-n, -m, -s).
TEST(RunSchema, ShortOptionsSetTheSameFields) {
  RunParams p;
  CLI::App app;
  app::add_run_options(app, p);
  std::vector<std::string> args{"gsflow", "-n", "7", "-m", "peptide", "-s", "42"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  EXPECT_EQ(p.n, 7u);
  EXPECT_EQ(p.model, "peptide");
  EXPECT_EQ(p.sampler.seed, 42u);
  EXPECT_EQ(run_param("n").flags(), "-n,--n");
  EXPECT_EQ(run_param("steps").flags(), "--steps");
}

TEST(RunSchema, RecordsWithoutTheLaterKeysReadAsTheyWereMade) {
  // A record written before time_grid and precision existed was made on the uniform grid in
  // float32, whatever today's defaults are; a new record always names both.
  const RunParams old = parse_run_params(R"({"model": "dna-promoter", "steps": 100})");
  EXPECT_EQ(old.sampler.grid, engine::TimeGrid::uniform);
  EXPECT_EQ(old.precision, models::Precision::float32);
  RunParams now;
  now.sampler.grid = engine::TimeGrid::information;
  now.precision = models::Precision::bfloat16;
  const std::string text = run_params_json(now);
  EXPECT_NE(text.find("\"time_grid\":\"information\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"precision\":\"bfloat16\""), std::string::npos) << text;
  const RunParams back = parse_run_params(text);
  EXPECT_EQ(back.sampler.grid, engine::TimeGrid::information);
  EXPECT_EQ(back.precision, models::Precision::bfloat16);
}

}  // namespace
}  // namespace gsflow::pipeline
