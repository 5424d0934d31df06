// The composition-band objective and band files (see natural.hpp).
#include "gsflow/guidance/natural.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "gsflow/engine/errors.hpp"
#include "gsflow/guidance/properties.hpp"
#include "gsflow/models/catalog.hpp"

namespace gsflow::guidance {

namespace {
const models::FileKind kBands{"composition band", "bands", {".json"}};

class NaturalObjective final : public Objective {
 public:
  NaturalObjective(std::string spec, engine::CompositionBand band, std::string alphabet)
      : band_(std::move(band)) {
    info_.name = std::move(spec);
    info_.alphabet = std::move(alphabet);
    info_.k = band_.letters.size();
    info_.on_prediction = true;
    info_.description = "composition inside the band of " + band_.reference +
                        " (0 inside; minus squared standard deviations outside)";
  }
  const ObjectiveInfo& info() const override { return info_; }

  void evaluate(const SequenceRows& seqs, std::span<double> scores,
                const engine::Rows* grad) const override {
    const std::size_t k = info_.k;
    for (std::size_t i = 0; i < seqs.n; ++i) {
      const std::size_t len = seqs.length_of(i);
      const engine::ConstRows rows{seqs.x.data + i * seqs.length * seqs.x.stride, len, k,
                                   seqs.x.stride};
      if (grad == nullptr) {
        scores[i] = len < 2 ? 0.0 : band_.score(rows, len);
        continue;
      }
      engine::Rows g{grad->data + i * seqs.length * grad->stride, seqs.length, k, grad->stride};
      for (std::size_t p = 0; p < seqs.length; ++p)
        std::fill(g.data + p * g.stride, g.data + p * g.stride + k, 0.0f);
      scores[i] = len < 2 ? 0.0 : band_.score(rows, len, &g);
    }
  }

 private:
  engine::CompositionBand band_;
  ObjectiveInfo info_;
};
}  // namespace

void write_band(const std::string& file, const engine::CompositionBand& band) {
  nlohmann::json linear = nlohmann::json::array();
  for (const auto& l : band.linear) linear.push_back({{"name", l.name}, {"weights", l.weights}});
  const nlohmann::json j = {{"letters", band.letters},   {"names", band.names},
                            {"linear", linear},
                            {"low", band.low},           {"high", band.high},
                            {"scale", band.scale},       {"quantile", band.quantile},
                            {"reference", band.reference},
                            {"reference_size", band.reference_size}};
  std::ofstream out(file);
  out << j.dump(2) << "\n";
  if (!out) throw engine::InputError(file, 0, "cannot write the composition band");
}

engine::CompositionBand read_band(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw engine::InputError(file, 0, "cannot read the composition band");
  try {
    const auto j = nlohmann::json::parse(in);
    engine::CompositionBand b;
    b.letters = j.at("letters").get<std::string>();
    b.names = j.at("names").get<std::vector<std::string>>();
    b.low = j.at("low").get<std::vector<double>>();
    b.high = j.at("high").get<std::vector<double>>();
    b.scale = j.at("scale").get<std::vector<double>>();
    b.quantile = j.at("quantile").get<double>();
    b.reference = j.at("reference").get<std::string>();
    b.reference_size = j.at("reference_size").get<std::size_t>();
    auto expected = engine::composition_feature_names(b.letters);
    for (const auto& l : j.at("linear")) {
      b.linear.push_back({l.at("name").get<std::string>(),
                          l.at("weights").get<std::vector<double>>()});
      if (b.linear.back().weights.size() != b.letters.size())
        throw engine::InputError(file, 0, "linear feature " + b.linear.back().name +
                                              ": needs one weight per letter");
      expected.push_back(b.linear.back().name);
    }
    const std::size_t n = b.names.size();
    if (b.letters.size() < 2 || b.names != expected ||
        b.low.size() != n || b.high.size() != n || b.scale.size() != n)
      throw engine::InputError(file, 0, "names, low, high and scale do not match the letters");
    for (std::size_t f = 0; f < n; ++f)
      if (!(b.scale[f] > 0.0) || !(b.low[f] <= b.high[f]))
        throw engine::InputError(file, 0, "feature " + b.names[f] +
                                              ": needs low <= high and a scale > 0");
    return b;
  } catch (const nlohmann::json::exception& e) {
    throw engine::InputError(file, 0, std::string("not a composition band: ") + e.what());
  }
}

std::vector<engine::LinearFeature> band_linear_features(const std::string& alphabet) {
  if (alphabet == "dna") return {{"GC", {0.0, 1.0, 1.0, 0.0}}};
  if (alphabet == "protein")
    return {{"gravy", {kKyteDoolittle.begin(), kKyteDoolittle.end()}},
            {"charge", {kChargeAtPh7.begin(), kChargeAtPh7.end()}}};
  return {};
}

std::string resolve_band(const std::string& name) { return models::resolve_file(kBands, name); }

std::shared_ptr<const Objective> make_natural_objective(const std::string& spec,
                                                        const std::string& arg,
                                                        const std::string& alphabet) {
  if (arg.empty())
    throw std::invalid_argument("--guide " + spec +
                                ": name the real class, natural:NAME (a band in models' bands "
                                "folder, e.g. natural:amp) or natural:FILE.json");
  auto band = read_band(resolve_band(arg));
  const std::string band_alphabet = band.letters == "ACGT" ? "dna" : "protein";
  if (!alphabet.empty() && band_alphabet != alphabet)
    throw std::invalid_argument("--guide " + spec + ": the band is for " + band_alphabet +
                                ", the model makes " + alphabet);
  return std::make_shared<NaturalObjective>(spec, std::move(band), band_alphabet);
}

std::string add_naturalness(std::vector<GuideTerm>& terms, double weight) {
  if (!(weight >= 0.0) || !std::isfinite(weight))
    throw std::invalid_argument("naturalness: " + std::to_string(weight) +
                                " is not a number >= 0");
  if (weight == 0.0) return "";
  for (const auto& t : terms)
    if (t.objective.rfind("natural", 0) == 0) return "";
  for (const auto& t : terms) {
    const std::string& name = t.objective;
    if (name.find(':') != std::string::npos || name.find('/') != std::string::npos) continue;
    const auto bands = models::file_names(kBands);
    if (std::find(bands.begin(), bands.end(), name) == bands.end()) continue;
    terms.push_back({"natural:" + name, weight});
    return terms.back().objective;
  }
  return "";
}

}  // namespace gsflow::guidance
