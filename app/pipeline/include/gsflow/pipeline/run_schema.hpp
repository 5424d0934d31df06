// The run schema: every parameter of a generation run declared once, with its JSON key, type,
// range, choices and help. The run-parameter JSON (run_params.hpp), the `gsflow generate` options
// (app/cli/run_options.cpp) and the studio's design form (ui/src/design_panel.cpp) all take their
// keys, ranges and help from here; defaults are RunParams' member initialisers. Adding a run
// parameter means one field in RunParams (or the option struct it belongs to) and one row in
// run_schema.cpp.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gsflow/pipeline/run_params.hpp"

namespace gsflow::pipeline {

enum class ParamType {
  integer,  // whole number (text: decimal digits, optional leading '-')
  real,     // floating-point number
  flag,     // true / false
  text,     // free text (a model name or file)
  choice,   // one of `choices`
  list,     // a list of texts (JSON array of strings; a CLI option given once per item)
};

// The {} initializers keep -Wmissing-field-initializers quiet for designated initializers that
// name a subset.
struct RunParam {
  std::string key{};  // JSON key; the CLI flag is "--" + key with '_' written as '-'
  ParamType type = ParamType::integer;
  double min = 0.0;  // inclusive range of integer and real parameters
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices{};  // the names a choice accepts, in display order
  std::string help{};                  // one line for --help and tooltips
  bool guided = false;  // part of guidance: written to JSON only for guided runs
  bool cli = true;      // a `gsflow generate` option of its own (shard is given as --shard I/N)
  bool model_default = false;  // the default is the model's own (method): none to show or store
  bool optional = false;  // written to the JSON only when not at its default (design options)
  char short_name = 0;    // a one-letter CLI alias (-n, -m, -s), or 0
  // The value a stored record without this key was made with (the key came later and its
  // default changed: time_grid, precision); "" = the current default.
  std::string absent{};
  // The field's value as text ("100", "0.16", "true", "gsfm"; a list: its JSON array);
  // doubles round-trip exactly.
  std::function<std::string(const RunParams&)> get{};
  // Parses `text` into the field (a list: appends one item); throws std::invalid_argument
  // "FIELD: ..." naming `field` when it is not of the type or outside the range.
  std::function<void(RunParams&, std::string_view text, const std::string& field)> set{};

  std::string flag() const;   // "--frames-every"
  std::string flags() const;  // CLI11's name list: "-n,--n", or flag() without a short name
  std::string range() const;  // of a number: "1..1000000", "0 or more", "positive, at most 5"
};

// Every run parameter except the guidance terms (a list of objective=weight, read and written by
// run_params.cpp and the CLI's --guide), in a fixed order.
const std::vector<RunParam>& run_schema();

// The row with this JSON key: nullptr (find_run_param) or std::out_of_range (run_param) when
// there is none.
const RunParam* find_run_param(std::string_view key);
const RunParam& run_param(std::string_view key);

// Checks what single fields cannot: relations between parameters (shard < shards).
void check_run_params(const RunParams& params);

}  // namespace gsflow::pipeline
