// Model internals shared by model.cpp and training.cpp (LibTorch types; internal to models/).
#pragma once

#include <memory>
#include <string>

#include "gsflow/models/model.hpp"
#include "mlp.hpp"

namespace gsflow::models {

struct Model::Impl {
  ModelSpec spec;
  ModelRecord record;
  Mlp net{nullptr};
  Mlp ema{nullptr};  // exponential moving average of net's weights (null = off)
  // Serialized optimiser state from a checkpoint, restored when training resumes (empty = none).
  std::string optimizer_state;
  // Networks for inference: the EMA weights when kept.
  Mlp& inference() { return ema ? ema : net; }
};

// Builds the network a spec describes (throws ModelError on impossible sizes).
Mlp make_network(const ModelSpec& spec);
// Copies every parameter and buffer of `from` into `to` (same architecture).
void copy_weights(const Mlp& from, Mlp& to);

}  // namespace gsflow::models
