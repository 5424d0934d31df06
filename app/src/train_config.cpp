// Reading configs/NAME.json (see train_config.hpp and docs/training.md for the keys), and the
// config-file parsing that config_section.hpp declares.
#include "train_config.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "config_section.hpp"

namespace gsflow::app {

using nlohmann::json;

json read_config_json(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file + ": cannot open the config file");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw std::invalid_argument(file + ": not valid JSON (" + e.what() + ")");
  }
}

TrainConfig read_train_config(const std::string& file) {
  const json j = read_config_json(file);
  TrainConfig c;
  Section root(j, file, "");
  c.name = root.get<std::string>("name");
  c.output = root.get<std::string>("output");
  c.init = root.get<std::string>("init", "");
  c.max_minutes = root.get<double>("max_minutes", 0.0);
  c.report_every = root.get<std::int64_t>("report_every", 100);

  Section data = root.sub("data");
  c.alphabet = data.get<std::string>("alphabet");
  c.train_file = data.get<std::string>("train");
  c.validation_file = data.get<std::string>("validation");
  c.min_length = data.get<std::size_t>("min_length", 1);
  data.finish();

  models::ModelSpec& s = c.spec;
  Section model = root.sub("model");
  try {
    s.method = engine::parse_method(model.get<std::string>("method"), model.where("method"));
    s.length = model.get<std::size_t>("length");
    s.alphabet = c.alphabet;
    s.k = c.alphabet == "dna" ? 4 : c.alphabet == "protein" ? 20 : 0;
    if (s.k == 0) throw std::invalid_argument(data.where("alphabet") + " must be dna or protein");
    Section path = model.sub("path");
    s.path.interpolant = engine::parse_interpolant(
        path.get<std::string>("interpolant", "consistent"), path.where("interpolant"));
    s.path.tau_max = path.get<double>("tau_max", s.path.tau_max);
    s.path.lambda = path.get<double>("lambda", s.path.lambda);
    s.path.beta = path.get<double>("beta", s.path.beta);
    s.path.signal_max = path.get<double>("signal_max", s.path.signal_max);
    path.finish();
    Section net = model.sub("network");
    s.network.type = models::parse_network_type(net.get<std::string>("type"), net.where("type"));
    s.network.width = net.get<int>("width", s.network.width);
    s.network.blocks = net.get<int>("blocks", s.network.blocks);
    s.network.time_features = net.get<int>("time_features", s.network.time_features);
    s.network.kernel = net.get<int>("kernel", s.network.kernel);
    s.network.heads = net.get<int>("heads", s.network.heads);
    s.network.input =
        models::parse_network_input(net.get<std::string>("input", "log_probs"), net.where("input"));
    s.network.likelihood_skip = net.get<bool>("likelihood_skip", true);
    s.network.block_positions = net.get<bool>("block_positions", false);
    net.finish();
    model.finish();

    models::TrainOptions& t = c.train;
    Section train = root.sub("train");
    t.steps = train.get<std::int64_t>("steps");
    t.batch = train.get<std::size_t>("batch", t.batch);
    t.lr = train.get<double>("lr", t.lr);
    t.weight_decay = train.get<double>("weight_decay", t.weight_decay);
    t.clip = train.get<double>("clip", t.clip);
    t.warmup = train.get<std::int64_t>("warmup", t.warmup);
    t.min_lr_ratio = train.get<double>("min_lr_ratio", t.min_lr_ratio);
    t.ema = train.get<double>("ema", t.ema);
    t.time_sampling = models::parse_time_sampling(
        train.get<std::string>("time_sampling", "stratified"), train.where("time_sampling"));
    t.validate_every = train.get<std::int64_t>("validate_every", t.validate_every);
    t.validation_batches = train.get<std::size_t>("validation_batches", t.validation_batches);
    t.checkpoint_every = train.get<std::int64_t>("checkpoint_every", 500);
    t.threads = train.get<int>("threads", 2);
    t.seed = train.get<std::uint64_t>("seed", 1);
    train.finish();
  } catch (const models::ModelError& e) {
    throw std::invalid_argument(e.what());
  }
  root.finish();
  return c;
}

}  // namespace gsflow::app
