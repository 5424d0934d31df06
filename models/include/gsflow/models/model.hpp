// A trained (or freshly initialised) denoiser or score network with everything needed to sample
// from it: the method, the path, the sequence shape and the network architecture. Torch-free
// header; the network itself lives behind a pointer in models/src.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gsflow/engine/path.hpp"
#include "gsflow/engine/sampler.hpp"

namespace gsflow::models {

// Thrown for unreadable, truncated, corrupt or mismatched checkpoints and bad model settings;
// the message names the file and the field.
class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The number type the network computes in at inference (docs/benchmarks.md, "Faster
// generation"). bfloat16 runs the body's matrix products on the CPU's bfloat16 units (AVX-512
// BF16 / AMX) with float32 time features, likelihood skip and outputs; it changes the sequences.
enum class Precision {
  automatic,  // what was measured fastest: float32 (resolve_precision)
  float32,
  bfloat16,
};
// What Precision::automatic means: float32 for every network. bfloat16 once halved the
// transformer's time on AVX-512 BF16, but only against float32 products on OpenBLAS's SSE3
// fallback; with the AVX-512 kernels (blas_kernels.hpp) float32 is the faster of the two, and
// bfloat16 slows the dilated CNN (docs/notes/2026-12-06-blas-kernels.md). Others are returned as
// they are.
inline Precision resolve_precision(Precision precision) {
  return precision == Precision::automatic ? Precision::float32 : precision;
}
inline constexpr engine::EnumNames<Precision, 3> kPrecisionNames{
    "precision",
    {{{Precision::automatic, "auto"},
      {Precision::float32, "float32"},
      {Precision::bfloat16, "bfloat16"}}}};

// What the network sees of the state x_t.
enum class NetworkInput {
  log_probs,  // log x, centred per position and scaled by 1/4 (default; exact posteriors are
              // functions of log x, see docs/method.md)
  probs,      // K * x (uniform = 1)
  posterior,  // K * p - 1 per position, p = softmax_k log p(x_t | e_k): each position's exact
              // posterior under a uniform prior (0 where x_t carries no information, K e_k - 1 at
              // t = 1), so a neighbour's evidence has the same scale at every t (docs/method.md)
};
inline constexpr engine::EnumNames<NetworkInput, 3> kNetworkInputNames{
    "network input",
    {{{NetworkInput::log_probs, "log_probs"},
      {NetworkInput::probs, "probs"},
      {NetworkInput::posterior, "posterior"}}}};
inline constexpr NetworkInput kNetworkInputs[] = {NetworkInput::log_probs, NetworkInput::probs,
                                                  NetworkInput::posterior};
const char* network_input_name(NetworkInput input);
NetworkInput parse_network_input(const std::string& text, const std::string& field);

// Which network predicts the clean letters.
enum class NetworkType {
  mlp,          // flattened MLP with residual blocks: small problems (toy benchmark), fixed length
  cnn,          // dilated 1-D CNN with time conditioning (DNA; Dirichlet-FM promoter model shape)
  transformer,  // pre-norm transformer with adaptive layer norm on t, padding mask, any length up
                // to ModelSpec::length (peptides)
};
inline constexpr engine::EnumNames<NetworkType, 3> kNetworkTypeNames{
    "network type",
    {{{NetworkType::mlp, "mlp"},
      {NetworkType::cnn, "cnn"},
      {NetworkType::transformer, "transformer"}}}};
const char* network_type_name(NetworkType type);
NetworkType parse_network_type(const std::string& text, const std::string& field);

// Architecture of the denoiser. Every network embeds t with sinusoidal features and an MLP, sees
// the state as NetworkInput says, and ends with L x K logits.
struct NetworkOptions {
  NetworkType type = NetworkType::mlp;  // see NetworkType
  int width = 128;                      // hidden width (MLP units, CNN channels, model dim)
  int blocks = 2;                       // residual blocks / layers
  int time_features = 32;               // sinusoidal features of t (half sin, half cos)
  int kernel = 9;                       // CNN: convolution kernel size (odd)
  int heads = 4;                        // transformer: attention heads (divide width)
  NetworkInput input = NetworkInput::log_probs;  // see NetworkInput
  // Add each position's exact log-likelihood of every clean letter, log p(x_t | e_k), to the
  // output logits, so the network learns only what the data adds (docs/method.md, "likelihood
  // skip").
  bool likelihood_skip = true;
  // CNN: a learned position table added before every block's convolution, beside the time
  // embedding, not only at the input (zero-initialised, so a model without it can start training
  // from the weights of one that has none). Checkpoints written before it existed read as false.
  bool block_positions = false;
  // (CNN self-attention layers, network.attention, were tried for tandem repeats and removed:
  // docs/notes/2026-12-07-promoter-strands.md; spec_from_json refuses a checkpoint that has them.)
};

struct ModelSpec {
  engine::Method method = engine::Method::gsfm;  // what the network predicts and how to sample
  engine::PathOptions path;                      // schedule and interpolant
  std::size_t length = 4;  // L, sequence length (transformer: the longest it accepts)
  std::size_t k = 20;      // K, alphabet size
  std::string alphabet;    // "dna", "protein" or "" (generic K, e.g. toy)
  NetworkOptions network;  // architecture

  // True when the network accepts any length up to `length` (padding masked): a transformer.
  bool variable_length() const { return network.type == NetworkType::transformer; }
};

// Training facts stored with the weights.
struct ModelRecord {
  std::int64_t train_steps = 0;           // optimiser steps taken
  std::string data_hash;                  // hash of the training letters (FNV-1a 64, hex)
  std::map<std::string, double> metrics;  // e.g. "val_loss", "best_val_loss"
  // How many training sequences had each length: generation draws lengths from it when the user
  // gives none.
  std::map<std::size_t, std::size_t> length_counts;
};

class Model {
 public:
  // Fresh network with weights initialised from `seed`. Throws ModelError on impossible settings.
  Model(const ModelSpec& spec, std::uint64_t seed);
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;

  // Reads a checkpoint written by save() (or by training). Throws ModelError naming the file for a
  // missing, truncated, corrupt or newer-format file, and for weights that do not fit the metadata.
  static Model load(const std::string& file);
  // Writes weights (EMA weights when training kept them), metadata and training state atomically
  // (temporary file + rename). Throws ModelError on I/O failure.
  void save(const std::string& file) const;
  // Writes only what sampling needs: the inference weights (EMA when kept) as the weights, no
  // optimiser state (about a quarter of save()'s size; bundled models). It cannot resume training.
  void save_for_inference(const std::string& file) const;
  // Copies the network weights of `other` (e.g. a GSFM model to start GSSM training from: the same
  // network predicts the posterior either way). Throws ModelError naming `what` unless the
  // networks, K and L are the same, except that this model may add block positions `other` lacks
  // (they keep their zero start, so the copy computes what `other` does).
  void init_weights_from(const Model& other, const std::string& what);
  // Throws ModelError naming the first field of `expected` that differs (method, K, L, alphabet).
  void check_matches(const ModelSpec& expected, const std::string& what) const;

  const ModelSpec& spec() const;
  const ModelRecord& record() const;
  ModelRecord& record();
  std::int64_t parameter_count() const;

  // A denoiser for engine::sample(): runs the network (EMA weights if any) under NoGradGuard and
  // writes softmax(logits) with the engine's kernels. The network runs on shards of about a
  // thousand positions, `threads` of them side by side; the output has the same bits for every
  // thread count.
  // `precision` automatic is resolve_precision()'s choice.
  engine::Denoiser denoiser(const engine::Kernels& kernels, int threads = 1,
                            Precision precision = Precision::float32) const;
  // The same for states padded to the model's length whose sequence i has only lengths[i] real
  // letters (transformer models): padded positions are masked out of attention. Every call must
  // hold exactly lengths.size() sequences; the vector must outlive the denoiser.
  engine::Denoiser denoiser(const engine::Kernels& kernels, int threads,
                            const std::vector<std::uint16_t>& lengths,
                            Precision precision = Precision::float32) const;

  struct Impl;
  Impl& impl() { return *impl_; }
  const Impl& impl() const { return *impl_; }

 private:
  explicit Model(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gsflow::models
