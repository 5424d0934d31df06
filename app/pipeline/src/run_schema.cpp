// The run schema's rows (see run_schema.hpp). Ranges are what every front end accepts: the JSON
// of a stored run, the `gsflow generate` options and the studio's form.
#include "gsflow/pipeline/run_schema.hpp"

#include <cctype>
#include <charconv>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace gsflow::pipeline {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& why) {
  throw std::invalid_argument(field + ": " + why);
}

std::string real_text(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back as v
  return std::string(buf, r.ptr);
}

bool in_range(const RunParam& row, double v) { return v >= row.min && v <= row.max; }

// A whole-number field: `ref(params)` names it.
template <typename Ref>
RunParam integer(std::string key, double min, double max, std::string help, Ref ref) {
  RunParam row{.key = std::move(key), .type = ParamType::integer, .min = min, .max = max,
               .help = std::move(help)};
  row.get = [ref](const RunParams& p) { return std::to_string(ref(const_cast<RunParams&>(p))); };
  row.set = [ref, row_copy = row](RunParams& p, std::string_view text, const std::string& field) {
    using T = std::remove_reference_t<decltype(ref(p))>;
    T value{};
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (r.ec == std::errc::result_out_of_range) bad(field, std::string(text) + " is out of range");
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size())
      bad(field, std::is_unsigned_v<T> && !text.empty() && text[0] == '-'
                     ? "must not be negative"
                     : "'" + std::string(text) + "' is not a whole number");
    if (!in_range(row_copy, static_cast<double>(value)))
      bad(field, std::string(text) + " is not possible (" + row_copy.range() + ")");
    ref(p) = value;
  };
  return row;
}

template <typename Ref>
RunParam real(std::string key, double min, double max, std::string help, Ref ref) {
  RunParam row{.key = std::move(key), .type = ParamType::real, .min = min, .max = max,
               .help = std::move(help)};
  row.get = [ref](const RunParams& p) { return real_text(ref(const_cast<RunParams&>(p))); };
  row.set = [ref, row_copy = row](RunParams& p, std::string_view text, const std::string& field) {
    double value = 0.0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() ||
        !std::isfinite(value))
      bad(field, "'" + std::string(text) + "' is not a number");
    if (!in_range(row_copy, value))
      bad(field, std::string(text) + " is not possible (" + row_copy.range() + ")");
    ref(p) = value;
  };
  return row;
}

template <typename Ref>
RunParam flag(std::string key, std::string help, Ref ref) {
  RunParam row{.key = std::move(key), .type = ParamType::flag, .help = std::move(help)};
  row.get = [ref](const RunParams& p) {
    return std::string(ref(const_cast<RunParams&>(p)) ? "true" : "false");
  };
  row.set = [ref](RunParams& p, std::string_view text, const std::string& field) {
    if (text != "true" && text != "false") bad(field, "expected true or false");
    ref(p) = text == "true";
  };
  return row;
}

// A closed set: `names` is its EnumNames table (engine/enum_names.hpp).
template <typename Names, typename Ref>
RunParam choice(std::string key, const Names& names, std::string help, Ref ref) {
  RunParam row{.key = std::move(key), .type = ParamType::choice, .choices = names.names(),
               .help = std::move(help)};
  row.get = [ref, &names](const RunParams& p) {
    return std::string(names.name(ref(const_cast<RunParams&>(p))));
  };
  row.set = [ref, &names](RunParams& p, std::string_view text, const std::string& field) {
    ref(p) = names.parse(text, field);
  };
  return row;
}

// A list of texts: `ref(params)` names the std::vector<std::string>; `item` checks and
// normalises one item (may throw naming `field`) before it is appended.
template <typename Ref, typename Item>
RunParam list(std::string key, std::string help, Ref ref, Item item) {
  RunParam row{.key = std::move(key), .type = ParamType::list, .help = std::move(help),
               .optional = true};
  row.get = [ref](const RunParams& p) {
    return nlohmann::json(ref(const_cast<RunParams&>(p))).dump();
  };
  row.set = [ref, item](RunParams& p, std::string_view text, const std::string& field) {
    ref(p).push_back(item(std::string(text), field));
  };
  return row;
}

std::string any_item(std::string text, const std::string&) { return text; }

std::string letters_item(std::string text, const std::string& field) {
  if (text.empty()) bad(field, "\"\" is not possible (letters)");
  for (char& c : text) {
    if (!std::isalpha(static_cast<unsigned char>(c)))
      bad(field, "'" + text + "' holds a character that is not a letter");
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return text;
}

// Each comma-separated part of a text is one item ("EcoRI,BsaI").
RunParam split_commas(RunParam row) {
  row.set = [append = row.set](RunParams& p, std::string_view text, const std::string& field) {
    std::size_t begin = 0;
    while (begin <= text.size()) {
      const std::size_t end = std::min(text.find(',', begin), text.size());
      const std::string_view part = text.substr(begin, end - begin);
      if (part.empty()) bad(field, "'" + std::string(text) + "' has an empty item");
      append(p, part, field);
      begin = end + 1;
    }
  };
  return row;
}

RunParam with_short(char name, RunParam row) {
  row.short_name = name;
  return row;
}

RunParam optional(RunParam row) {
  row.optional = true;
  return row;
}

// Free text, upper-cased letters: `ref(params)` names the std::string.
template <typename Ref>
RunParam text(std::string key, std::string help, Ref ref) {
  RunParam row{.key = std::move(key), .type = ParamType::text, .help = std::move(help)};
  row.get = [ref](const RunParams& p) { return ref(const_cast<RunParams&>(p)); };
  row.set = [ref](RunParams& p, std::string_view text, const std::string& field) {
    ref(p) = text.empty() ? std::string() : letters_item(std::string(text), field);
  };
  return row;
}

RunParam guided(RunParam row) {
  row.guided = true;
  return row;
}

RunParam model_default(RunParam row) {
  row.model_default = true;
  return row;
}

RunParam absent_means(std::string value, RunParam row) {
  row.absent = std::move(value);
  return row;
}

RunParam no_cli(RunParam row) {
  row.cli = false;
  return row;
}

std::vector<RunParam> make_schema() {
  constexpr double kPositive = std::numeric_limits<double>::min();  // "> 0"
  using engine::kDecodeNames, engine::kIntegratorNames, engine::kMethodNames;
  using guidance::kGammaScheduleNames, guidance::kGuideFromNames;
  RunParam model{.key = "model", .type = ParamType::text,
                 .help = "Bundled model name (dna-promoter, peptide, ...) or a checkpoint file"};
  model.get = [](const RunParams& p) { return p.model; };
  model.set = [](RunParams& p, std::string_view text, const std::string& field) {
    if (text.empty()) bad(field, "\"\" is not possible (a name or file)");
    p.model = std::string(text);
  };
  return {
      with_short('m', model),
      with_short('n', integer("n", 1, 1e7, "Number of sequences (of the whole request when sharded)",
                              [](RunParams& p) -> auto& { return p.n; })),
      integer("length", 0, 100000,
              "Letters per sequence (0 = the model's; peptides: drawn from training)",
              [](RunParams& p) -> auto& { return p.length; }),
      no_cli(integer("shard", 0, 1e6 - 1, "This run makes slice `shard` (0-based) of `shards`",
                     [](RunParams& p) -> auto& { return p.shard; })),
      no_cli(integer("shards", 1, 1e6, "Slices the request is split into",
                     [](RunParams& p) -> auto& { return p.shards; })),
      integer("threads", 1, 1024, "Network threads (never changes the sequences)",
              [](RunParams& p) -> auto& { return p.threads; }),
      no_cli(flag("consistent", "Reference kernels were forced (bit-reproducible on any CPU)",
                  [](RunParams& p) -> auto& { return p.consistent; })),
      model_default(choice("method", kMethodNames,
             "gsfm, gssm or linear (default: the model's; picks NAME-gssm / NAME-linear for a "
             "bundled name)",
             [](RunParams& p) -> auto& { return p.sampler.method; })),
      choice("integrator", kIntegratorNames,
             "GSFM integrator: exponential (exact for a frozen prediction, stays on the simplex), "
             "multistep (second order from the last two predictions, same calls) or euler",
             [](RunParams& p) -> auto& { return p.sampler.integrator; }),
      integer("steps", 0, 1e6,
              "Sampling steps (network calls per sequence); 0 = auto: 10, guided: as measured for the "
              "first guide (gsflow objectives list), else 100; Linear FM models at least 100",
              [](RunParams& p) -> auto& { return p.sampler.steps; }),
      absent_means("uniform",
                   choice("time_grid", engine::kTimeGridNames,
                          "Where the steps fall: uniform in time, or information (where the "
                          "state learns the letters)",
                          [](RunParams& p) -> auto& { return p.sampler.grid; })),
      absent_means("float32",
                   choice("precision", models::kPrecisionNames,
                          "Network number type: auto (float32, measured fastest), float32 "
                          "or bfloat16; a stored run records what auto chose",
                          [](RunParams& p) -> auto& { return p.precision; })),
      choice("decode", kDecodeNames,
             "How the final letters are read: xhat (the last prediction) or x (the state)",
             [](RunParams& p) -> auto& { return p.sampler.decode; }),
      real("temperature", 0.01, 100,
           "Inference temperature: the prediction is sharpened (< 1) or flattened (> 1)",
           [](RunParams& p) -> auto& { return p.sampler.temperature; }),
      real("start_scale", kPositive, 1e6, "Scale of the start state's noise (1 = the path's own)",
           [](RunParams& p) -> auto& { return p.sampler.start_scale; }),
      real("reinject", 0, 1e6, "Gumbel noise re-injected per step (0 = none)",
           [](RunParams& p) -> auto& { return p.sampler.reinject; }),
      integer("corrector_steps", 0, 64, "GSSM: Langevin corrector steps per level",
              [](RunParams& p) -> auto& { return p.sampler.corrector_steps; }),
      real("snr", kPositive, 1e6, "GSSM: signal-to-noise ratio of the Langevin step",
           [](RunParams& p) -> auto& { return p.sampler.snr; }),
      integer("batch", 1, 1e6, "Sequences per network call, and per commit to the run store",
              [](RunParams& p) -> auto& { return p.sampler.batch; }),
      with_short('s', integer("seed", 0, std::numeric_limits<double>::infinity(),
                              "Seed (any 64-bit unsigned number): same seed, same sequences",
                              [](RunParams& p) -> auto& { return p.sampler.seed; })),
      integer("frames_every", 0, 1e6, "Store the trajectory every n-th step (0 = none)",
              [](RunParams& p) -> auto& { return p.sampler.frames_every; }),
      guided(real("gamma", 0, 1e6, "Guidance strength gamma (0 = unguided; measured suggestions per "
                                   "objective: gsflow objectives list)",
                  [](RunParams& p) -> auto& { return p.guidance.gamma; })),
      guided(choice("gamma_schedule", kGammaScheduleNames,
                    "constant, rising (2 gamma t: the same total push, given late) or falling "
                    "(2 gamma (1 - t): given early)",
                    [](RunParams& p) -> auto& { return p.guidance.schedule; })),
      guided(integer("guide_samples", 1, 64,
                     "M: sequences drawn from the state per step to take gradients at",
                     [](RunParams& p) -> auto& { return p.guidance.samples; })),
      guided(optional(choice("guidance_method", guidance::kGuidanceMethodNames,
                             "stgflow (gradient drift on the state) or svdd (keep the best of M "
                             "candidates from the model's own transition; no gradients needed)",
                             [](RunParams& p) -> auto& { return p.guidance.method; }))),
      guided(absent_means(
          "1", integer("guide_substeps", 1, 64,
                       "STGFlow: the drift is taken this many times per step, each from the moved "
                       "state, sharing the step's one network call",
                       [](RunParams& p) -> auto& { return p.sampler.guide_substeps; }))),
      guided(choice("guide_from", kGuideFromNames,
                    "Draw them from the state (state) or the model's prediction (prediction)",
                    [](RunParams& p) -> auto& { return p.guidance.from; })),
      // Design: fixed letters, hard constraints, start sequences (design.hpp, docs/method.md).
      list("template",
           "Template: letters fixed, N (DNA) / X (peptides) designable; give several for one "
           "per sequence (sequence i uses template i mod count)",
           [](RunParams& p) -> auto& { return p.design.templates; }, letters_item),
      list("fix",
           "POS=LETTERS: a motif kept at a 1-based position (negative: from the 3' end, -1 = "
           "the last letter), e.g. -30=TATAAAAG",
           [](RunParams& p) -> auto& { return p.design.fix; }, any_item),
      optional(choice("fixed_hold", engine::kFixedHoldNames,
                      "How the network sees fixed letters: clean (the letter itself) or path "
                      "(the path's noisy sample of it)",
                      [](RunParams& p) -> auto& { return p.design.fixed_hold; })),
      split_commas(list("avoid",
           "DNA sites never made, on both strands: IUPAC motifs or enzyme names (EcoRI, BsaI, "
           "...), comma-separated or repeated",
           [](RunParams& p) -> auto& { return p.design.constraints.avoid; }, any_item)),
      optional(integer("max_run", 0, 1e6,
                       "Longest run of one letter (homopolymer, residue run); 0 = any",
                       [](RunParams& p) -> auto& { return p.design.constraints.max_run; })),
      optional(real("gc_min", 0, 1, "DNA: lowest GC fraction (whole sequence and each window)",
                    [](RunParams& p) -> auto& { return p.design.constraints.gc_min; })),
      optional(real("gc_max", 0, 1, "DNA: highest GC fraction (whole sequence and each window)",
                    [](RunParams& p) -> auto& { return p.design.constraints.gc_max; })),
      optional(integer("gc_window", 0, 1e6,
                       "DNA: the GC range also holds in every window of this many letters "
                       "(0 = whole sequence only)",
                       [](RunParams& p) -> auto& { return p.design.constraints.gc_window; })),
      optional(text("omit", "Letters never used, e.g. C (no cysteine)",
                    [](RunParams& p) -> auto& { return p.design.constraints.omit; })),
      optional(real("constraint_strength", 0, 1e6,
                    "Steering away from constraint violations while sampling (0 = only the "
                    "final repair)",
                    [](RunParams& p) -> auto& { return p.design.constraint_strength; })),
      no_cli(list("start", "Start sequences: sequence i starts from start i mod count",
                  [](RunParams& p) -> auto& { return p.design.starts; }, letters_item)),
      no_cli(list("start_ids", "Record ids of the start sequences",
                  [](RunParams& p) -> auto& { return p.design.start_ids; }, any_item)),
      optional(real("start_time", 0, 0.999,
                    "Where a start sequence is put on the path: 0 = noise (forgets it); for the "
                    "bundled promoter model 0.3-0.6 edits it, 0.8 and above keeps it; the "
                    "bundled peptide model keeps about 40 / 67 / 91 % of the letters at "
                    "0.4 / 0.5 / 0.6",
                    [](RunParams& p) -> auto& { return p.design.start_time; })),
      optional(integer("max_edits", 0, 1e7,
                       "At most this many positions differ from the start sequence (exact)",
                       [](RunParams& p) -> auto& { return p.design.max_edits; })),
  };
}

}  // namespace

std::string RunParam::flag() const {
  std::string f = "--" + key;
  for (char& c : f)
    if (c == '_') c = '-';
  return f;
}

std::string RunParam::flags() const {
  return short_name ? std::string("-") + short_name + "," + flag() : flag();
}

std::string RunParam::range() const {
  if (type != ParamType::integer && type != ParamType::real) return "";
  const auto num = [this](double v) {
    return type == ParamType::integer ? std::to_string(static_cast<long long>(v)) : real_text(v);
  };
  const std::string lo = min == std::numeric_limits<double>::min() ? "" : num(min);
  if (std::isinf(max)) return lo.empty() ? "positive" : lo + " or more";
  return lo.empty() ? "positive, at most " + num(max) : lo + ".." + num(max);
}

const std::vector<RunParam>& run_schema() {
  static const std::vector<RunParam> schema = make_schema();
  return schema;
}

const RunParam* find_run_param(std::string_view key) {
  for (const auto& row : run_schema())
    if (row.key == key) return &row;
  return nullptr;
}

const RunParam& run_param(std::string_view key) {
  if (const RunParam* row = find_run_param(key)) return *row;
  throw std::out_of_range("run schema: no parameter '" + std::string(key) + "'");
}

void check_run_params(const RunParams& p) {
  if (p.shard >= p.shards)
    throw std::invalid_argument("run parameters: shard: " + std::to_string(p.shard) +
                                " is not possible (below shards)");
}

}  // namespace gsflow::pipeline
