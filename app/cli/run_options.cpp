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
    auto* opt = cmd.add_option_function<std::string>(
        flag,
        [&params, &row, flag](const std::string& text) {
          try {
            row.set(params, text, flag);
          } catch (const std::invalid_argument& e) {
            throw CLI::ValidationError(e.what());
          }
        },
        row.help);
    if (row.type == pipeline::ParamType::choice) {
      opt->check(CLI::IsMember(row.choices));
    } else if (row.type == pipeline::ParamType::integer || row.type == pipeline::ParamType::real) {
      opt->type_name(row.type == pipeline::ParamType::integer ? "INT" : "FLOAT");
      if (!std::isinf(row.max)) opt->check(CLI::Range(row.min, row.max));
    }
    // The method's default is the model's own (a bundled name picks its variant).
    if (row.key != "method") opt->default_str(row.get(params));
  }
}

}  // namespace gsflow::app
