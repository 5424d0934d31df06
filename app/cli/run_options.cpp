// CLI11 options from the run schema (see run_options.hpp).
#include "run_options.hpp"

#include <cmath>
#include <stdexcept>

#include "gsflow/pipeline/run_schema.hpp"

namespace gsflow::app {

void add_run_options(CLI::App& cmd, pipeline::RunParams& params) {
  for (const auto& row : pipeline::run_schema()) {
    if (!row.cli) continue;
    const std::string flag = row.flag();
    // Numbers show their range; a choice's help already names its choices.
    const bool numeric =
        row.type == pipeline::ParamType::integer || row.type == pipeline::ParamType::real;
    const std::string range = numeric ? row.range() : "";
    // The schema's setter checks the type, range or name: an impossible value throws
    // std::invalid_argument naming the flag (exit 2, as any impossible input).
    auto* opt = cmd.add_option_function<std::string>(
        flag, [&params, &row, flag](const std::string& text) { row.set(params, text, flag); },
        row.help + (range.empty() ? "" : " [" + range + "]"));
    if (row.type == pipeline::ParamType::integer) opt->type_name("INT");
    if (row.type == pipeline::ParamType::real) opt->type_name("FLOAT");
    if (row.type == pipeline::ParamType::choice) opt->type_name("NAME");
    if (!row.model_default) opt->default_str(row.get(params));
  }
}

}  // namespace gsflow::app
