// A LibTorch module's parameters and buffers as checkpoint section bytes, and back with their
// shapes checked (internal to models/; shared by generator and classifier checkpoints).
#pragma once

#include <torch/torch.h>

#include <string>

namespace gsflow::models {

// The module's parameters and buffers in LibTorch's archive format.
std::string save_module(torch::nn::Module& net);

// Loads bytes written by save_module() into `net`, which must already have the architecture the
// checkpoint's metadata describes. Throws ModelError naming `file` and `section` when the bytes
// are not an archive or a tensor's shape differs.
void load_module(torch::nn::Module& net, const std::string& bytes, const std::string& file,
                 const std::string& section);

}  // namespace gsflow::models
