// Reading configs/classifier-NAME.json (see classifier_config.hpp).
#include "classifier_config.hpp"

#include <stdexcept>

#include "config_section.hpp"
#include "sequence_sets.hpp"
#include "train_config.hpp"

namespace gsflow::app {

ClassifierConfig read_classifier_config(const std::string& file) {
  const nlohmann::json j = read_config_json(file);
  ClassifierConfig c;
  c.file = file;
  models::ClassifierTrainOptions& t = c.train;
  models::ClassifierInfo& info = t.info;
  Section root(j, file, "");
  info.name = root.get<std::string>("name");
  c.output = root.get<std::string>("output");
  info.positive = root.get<std::string>("positive");
  c.max_minutes = root.get<double>("max_minutes", 0.0);
  c.report_every = root.get<std::int64_t>("report_every", 100);
  if (c.max_minutes < 0.0) throw std::invalid_argument(root.where("max_minutes") + " must be >= 0");

  Section data = root.sub("data");
  info.alphabet = data.get<std::string>("alphabet");
  info.k = alphabet_named(info.alphabet, data.where("alphabet")).size();
  c.label = data.get<std::string>("label");
  c.train_file = data.get<std::string>("train");
  c.validation_file = data.get<std::string>("validation");
  c.test_file = data.get<std::string>("test", "");
  const nlohmann::json extra = data.get<nlohmann::json>("extra_negatives", nlohmann::json::array());
  if (!extra.is_array())
    throw std::invalid_argument(data.where("extra_negatives") + " must be a list of FASTA files");
  for (std::size_t i = 0; i < extra.size(); ++i) {
    if (!extra[i].is_string() || extra[i].get<std::string>().empty())
      throw std::invalid_argument(data.where("extra_negatives") + "[" + std::to_string(i) +
                                  "] must be a file name");
    c.extra_negatives.push_back(extra[i].get<std::string>());
  }
  info.min_length = data.get<std::size_t>("min_length");
  info.max_length = data.get<std::size_t>("max_length");
  if (info.min_length < 1 || info.max_length < info.min_length || info.max_length > 65535)
    throw std::invalid_argument(data.where("max_length") +
                                " must be in min_length..65535 and min_length >= 1");
  data.finish();

  Section net = root.sub("network");
  models::ClassifierNetworkOptions& n = t.network;
  n.width = net.get<int>("width", n.width);
  n.blocks = net.get<int>("blocks", n.blocks);
  n.kernel = net.get<int>("kernel", n.kernel);
  n.hidden = net.get<int>("hidden", n.hidden);
  n.pool = net.get<int>("pool", n.pool);
  n.dropout = net.get<double>("dropout", n.dropout);
  n.positions = net.get<bool>("positions", n.positions);
  net.finish();
  const auto check = [&](bool ok, const Section& s, const std::string& key, const char* rule) {
    if (!ok) throw std::invalid_argument(s.where(key) + " " + rule);
  };
  check(n.width >= 1, net, "width", "must be >= 1");
  check(n.blocks >= 0, net, "blocks", "must be >= 0");
  check(n.kernel >= 1 && n.kernel % 2 == 1, net, "kernel", "must be an odd number >= 1");
  check(n.hidden >= 1, net, "hidden", "must be >= 1");
  check(n.pool >= 1, net, "pool", "must be >= 1 (1 = no pooling)");
  check(n.dropout >= 0.0 && n.dropout < 1.0, net, "dropout", "must be in [0, 1)");
  check(!n.positions || info.min_length == info.max_length, net, "positions",
        "needs data.min_length == data.max_length");

  Section train = root.sub("train");
  read_trainer_options(train, t);
  t.positive_weight = train.get<double>("positive_weight", t.positive_weight);
  t.augment_substitution = train.get<double>("augment_substitution", t.augment_substitution);
  train.finish();
  check(t.steps >= 1, train, "steps", "must be >= 1");
  check(t.batch >= 1, train, "batch", "must be >= 1");
  check(t.lr > 0.0, train, "lr", "must be > 0");
  check(t.weight_decay >= 0.0, train, "weight_decay", "must be >= 0");
  check(t.clip >= 0.0, train, "clip", "must be >= 0 (0 = off)");
  check(t.warmup >= 1, train, "warmup", "must be >= 1");
  check(t.min_lr_ratio >= 0.0 && t.min_lr_ratio <= 1.0, train, "min_lr_ratio", "must be in [0, 1]");
  check(t.positive_weight >= 0.0, train, "positive_weight", "must be >= 0 (0 = balanced)");
  check(t.augment_substitution >= 0.0 && t.augment_substitution <= 1.0, train,
        "augment_substitution", "must be in [0, 1] (0 = off)");
  check(t.ema >= 0.0 && t.ema < 1.0, train, "ema", "must be in [0, 1)");
  check(t.validate_every >= 0, train, "validate_every", "must be >= 0");
  check(t.threads >= 1, train, "threads", "must be >= 1");
  root.finish();
  return c;
}

}  // namespace gsflow::app
