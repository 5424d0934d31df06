// CLI11 options from the run schema (see run_options.hpp).
#include "run_options.hpp"

#include <cmath>
#include <stdexcept>

#include "gsflow/pipeline/run_schema.hpp"

namespace gsflow::app {

namespace {

// One CLI11 option for one schema row.
void add_row_option(CLI::App& cmd, pipeline::RunParams& params, const pipeline::RunParam& row) {
  const std::string flag = row.flag();
  // Numbers show their range; a choice's help already names its choices.
  const bool numeric =
      row.type == pipeline::ParamType::integer || row.type == pipeline::ParamType::real;
  const std::string range = numeric ? row.range() : "";
  // The schema's setter checks the type, range or name: an impossible value throws
  // std::invalid_argument naming the flag (exit 2, as any impossible input).
  const std::string help = row.help + (range.empty() ? "" : " [" + range + "]");
  if (row.type == pipeline::ParamType::list) {  // given once per item
    cmd.add_option_function<std::vector<std::string>>(
           row.flags(),
           [&params, &row, flag](const std::vector<std::string>& items) {
             for (const auto& item : items) row.set(params, item, flag);
           },
           help)
        ->type_name("TEXT")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->allow_extra_args(false);
    return;
  }
  auto* opt = cmd.add_option_function<std::string>(
      row.flags(), [&params, &row, flag](const std::string& text) { row.set(params, text, flag); },
      help);
  if (row.type == pipeline::ParamType::integer) opt->type_name("INT");
  if (row.type == pipeline::ParamType::real) opt->type_name("FLOAT");
  if (row.type == pipeline::ParamType::choice) opt->type_name("NAME");
  // An optional parameter at its default means "none" (e.g. no edit budget): nothing to show.
  if (!row.model_default && !row.optional) opt->default_str(row.get(params));
}

}  // namespace

void add_run_options(CLI::App& cmd, pipeline::RunParams& params) {
  for (const auto& row : pipeline::run_schema())
    if (row.cli) add_row_option(cmd, params, row);
}

void add_run_options(CLI::App& cmd, pipeline::RunParams& params,
                     const std::vector<std::string>& keys) {
  for (const auto& key : keys) add_row_option(cmd, params, pipeline::run_param(key));
}

}  // namespace gsflow::app
