// Classifier internals shared by classifier.cpp and classifier_training.cpp (LibTorch types;
// internal to models/).
#pragma once

#include <memory>
#include <string>

#include "batch_shards.hpp"
#include "classifier_network.hpp"
#include "gsflow/models/classifier.hpp"

namespace torch::jit {
struct Module;
}  // namespace torch::jit

namespace gsflow::models {

struct Classifier::Impl {
  ClassifierInfo info;
  std::string file;  // where it was loaded from ("" = trained in this process)
  // Shards of about kShardPositions positions: every activation stays a few MB, so LibTorch's
  // buffers come back from the heap instead of fresh pages (first touch costs ~14 us per page on
  // these machines): 1,024 DNA sequences forward + backward in one piece took ~18x longer.
  static constexpr std::size_t kShardPositions = 16384;
  std::shared_ptr<BatchShards> shards = std::make_shared<BatchShards>(1, kShardPositions);
  // Exactly one of the two is set. The CNN is in eval() mode with requires_grad off on every
  // parameter: evaluate() only asks autograd for input gradients, so concurrent calls share it.
  ClassifierCnn net{nullptr};
  ClassifierNetworkOptions options;            // the CNN's architecture
  std::string training;                        // JSON of the training options (checkpoint metadata)
  std::shared_ptr<torch::jit::Module> script;  // user TorchScript module, eval() mode
};

// Freezes a trained network for inference: eval() mode, requires_grad off.
void freeze_for_inference(ClassifierCnn& net);

}  // namespace gsflow::models
