// Model internals shared by model.cpp and training.cpp (LibTorch types; internal to models/).
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "gsflow/models/model.hpp"
#include "network.hpp"

namespace gsflow::models {

struct Model::Impl {
  ModelSpec spec;
  ModelRecord record;
  Network net;
  Network ema;  // exponential moving average of net's weights (null = off)
  // Serialized optimiser state from a checkpoint, restored when training resumes (empty = none).
  std::string optimizer_state;
  // Networks for inference: the EMA weights when kept.
  Network& inference() { return ema ? ema : net; }
  // The inference weights in bfloat16 (made on first use; Precision::bfloat16).
  Network bf16;
  std::mutex bf16_mutex;
  Network& inference(Precision precision);
};

// Copies every parameter and buffer of `from` into `to` (same architecture).
// Copies every parameter and buffer of `to` from the same-named one of `from`; with `keep_missing`,
// those `from` lacks keep their values instead of being an error.
void copy_weights(const Network& from, Network& to, bool keep_missing = false);

}  // namespace gsflow::models
