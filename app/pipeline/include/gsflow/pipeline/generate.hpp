// The one headless generation pipeline that the CLI and the GUI call: a model and a request in,
// sequences out, with progress, frame and cancel hooks, and STGFlow guidance (stgflow.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "gsflow/engine/kernels.hpp"
#include "gsflow/engine/sampler.hpp"
#include "gsflow/guidance/objective.hpp"
#include "gsflow/guidance/stgflow.hpp"
#include "gsflow/pipeline/design.hpp"
#include "gsflow/models/model.hpp"

namespace gsflow::pipeline {

struct GenerateRequest {
  std::size_t n = 100;  // sequences to generate
  // Letters per sequence. 0 = the model's length for fixed-length models; for transformer models
  // each sequence's length is drawn from the training lengths stored in the checkpoint.
  std::size_t length = 0;
  // Global index of the first sequence: a request for sequences [first, first + n) gives exactly
  // those sequences of the request for [0, first + n) (shards of a large batch).
  std::size_t first = 0;
  // Sampler settings; `method` is taken from the model (a mismatch throws).
  engine::SamplerOptions sampler;
  int threads = 1;  // LibTorch intra-op threads for the network
  // The network's number type (automatic: models::resolve_precision).
  models::Precision precision = models::Precision::automatic;
  // STGFlow guidance; inactive (no terms, or gamma 0) = unguided, bit for bit.
  guidance::GuidanceOptions guidance;
  // Fixed letters, constraints, start sequences (design.hpp); inactive = free generation.
  DesignOptions design;
  // The objectives of guidance.terms, in order, when the caller has built them already (to share
  // them between calls); empty = built from the terms' specs for the model's alphabet.
  std::vector<std::shared_ptr<const guidance::Objective>> objectives;
};

struct GenerateResult {
  std::vector<std::vector<std::uint8_t>> sequences;  // letter indices, request order
  std::size_t completed = 0;                         // == n unless cancelled (a prefix)
  bool cancelled = false;
  double network_seconds = 0.0;  // time inside the network (denoiser calls)
  double total_seconds = 0.0;    // wall time of the whole call
  guidance::GuidanceStats guidance;        // guidance cost (zero when unguided)
  std::vector<DesignNote> notes;  // per sequence, request order; empty when no design is active
};

// Receives each batch of finished sequences as soon as it is done, in request order: `first` is
// the global index of batch[0]; `notes` says what the design did to each (empty without one). Lets callers store work before the whole request ends. Returning
// false stops generation after this batch (result.cancelled is then set): a graceful stop, where
// hooks.cancel abandons the batch in progress.
using BatchSink =
    std::function<bool(std::size_t first, std::span<const std::vector<std::uint8_t>> batch,
                       std::span<const DesignNote> notes)>;

// Lengths of the n sequences of a request (global indices first .. first + n - 1): the design's
// (template or start sequence) when it gives one, else request.length when given (must not exceed a
// transformer's maximum or differ from a fixed-length model's length), else the model's length,
// else draws from the model's training length distribution keyed by (seed, index): the first n
// lengths do not depend on n. Throws std::invalid_argument naming the field.
std::vector<std::size_t> sequence_lengths(const models::Model& model,
                                          const GenerateRequest& request);

// Generates request.n sequences in batches of sampler.batch. When every sequence has one length
// they are sampled at that length; lengths drawn for a transformer model are padded to the
// model's length with the padding masked. Either way sequence i's randomness depends only on
// (seed, i), so a larger n extends a smaller one and shards join up exactly. Frames carry global
// sequence indices and rows at the sampled (possibly padded) length. Cancel (hooks.cancel)
// returns the batches completed so far (a prefix, in request order). Throws
// std::invalid_argument for impossible settings.
// With active guidance, each step's mean objective scores go to `on_step_score` (before the
// batch's on_batch call); objectives for another alphabet or K throw std::invalid_argument.
GenerateResult generate(const models::Model& model, const GenerateRequest& request,
                        const engine::Kernels& kernels, const engine::SamplerHooks& hooks = {},
                        const BatchSink& on_batch = {}, const guidance::StepScoreSink& on_step_score = {});

// Checks the request's design before any work (what generate() would refuse: letters, lengths,
// options, and whether each sequence's constraints can be met). Throws std::invalid_argument
// naming the option; a no-op without a design.
void check_design(const models::Model& model, const GenerateRequest& request);

// The objectives of request.guidance.terms: request.objectives when given, else built for the
// model's alphabet. Throws std::invalid_argument naming the term for a mismatch.
std::vector<std::shared_ptr<const guidance::Objective>> guidance_objectives(const models::Model& model,
                                                                  const GenerateRequest& request);

}  // namespace gsflow::pipeline
