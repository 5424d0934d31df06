// The parameters of a generation run as one JSON object: what the run store keeps so that a run
// can be shown, rerun exactly, and split into shards that join up to the unsharded run.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "gsflow/engine/sampler.hpp"
#include "gsflow/pipeline/generate.hpp"

namespace gsflow::pipeline {

// Every field is a row of the run schema (run_schema.hpp: key, range, help); the initialisers
// here are the defaults of `gsflow generate` and the studio's form.
// Steps when none are given (docs/notes/2026-12-06-fewer-steps.md): 10 multistep steps match 100
// exponential ones unguided (6-mer JS, TATA window, 3-mer JS, composition KL on validation).
// Guided runs take the steps measured for their first objective (ObjectiveEntry::guided_steps:
// promoter 16, judge -0.009 at 6.4x the speed), else 100: guided peptides lose with fewer steps
// (amp at gamma 8: judge 0.187 at 100, 0.176 at 50, 0.137 at 16; residue runs >= 5 in 2.5 %,
// 4.5 %, 7.5 % of designs).
// Linear FM models take Euler steps, first order: at least 100 (`peptide-linear` at 10 Euler
// steps: 3-mer JS 3.8x its floor, composition KL 0.30 on the leak-free validation split).
inline constexpr int kDefaultSteps = 10;
inline constexpr int kDefaultGuidedSteps = 100;
inline constexpr int kDefaultLinearSteps = 100;

struct RunParams {
  std::string model = "dna-promoter";  // bundled name or checkpoint file, as the user gave it
  std::size_t n = 100;                 // sequences in the whole request (all shards together)
  std::size_t length = 0;              // see GenerateRequest::length (0 = the model's / drawn)
  std::size_t shard = 0;               // this run makes shard `shard` (0-based) ...
  std::size_t shards = 1;              // ... of `shards` contiguous slices of [0, n)
  int threads = 2;                     // network threads (never changes the sequences)
  bool consistent = false;             // reference kernels were forced (bit-reproducible)
  models::Precision precision = models::Precision::automatic;  // stored runs: resolved
  // method, steps, seed, batch, temperature, frames, ... (the sampler's defaults but these).
  // Multistep steps, as many as resolved_steps() says (steps 0 = auto); a frame per step.
  engine::SamplerOptions sampler{.integrator = engine::Integrator::multistep,
                                 .steps = 0,
                                 .batch = 256,
                                 .frames_every = 1};
  guidance::GuidanceOptions guidance;  // STGFlow terms, gamma, schedule, samples (empty = none)
  DesignOptions design;                // fixed letters, constraints, start sequences (design.hpp)
};

// Sequences [first, first + count) of shard `shard` of `shards` over n sequences: contiguous,
// sizes differ by at most one, and the shards of one request tile [0, n) in order.
std::pair<std::size_t, std::size_t> shard_range(std::size_t n, std::size_t shard,
                                                std::size_t shards);

// Parses "I/N" with 0 <= I < N (0-based, like `sbatch --array=0-(N-1)` task ids). Throws
// std::invalid_argument naming `field`.
std::pair<std::size_t, std::size_t> parse_shard(const std::string& text,
                                                const std::string& field = "shard");

// The run's steps: params.sampler.steps, or for 0 (auto) kDefaultSteps unguided and for a guided
// run its first objective's guided_steps (objective_catalog.hpp), else kDefaultGuidedSteps; a
// Linear FM run (params.sampler.method) at least kDefaultLinearSteps. Stored runs record the
// resolved number.
int resolved_steps(const RunParams& params);

// The generate() request of this run's shard.
GenerateRequest to_request(const RunParams& params);

// How a guided run was steered, in FASTA-header words: "guide=SPEC:WEIGHT,... gamma=G
// guide_samples=M" plus gamma_schedule=, guidance= and guide_from= when not constant / stgflow /
// state ("guide=amp:1,natural:amp:16 gamma=8 guide_samples=4"); a plug-in classifier goes by its
// file stem (storage::score_label). "" for an unguided run.
std::string guidance_summary(const guidance::GuidanceOptions& guidance);

// How the run was made beyond model, method, seed and steps: guidance_summary() then
// design_summary() (design.hpp), blank-separated; "" for a plain run. The FASTA headers' MADE_WITH.
std::string run_summary(const RunParams& params);

// Compact JSON with every field (enums by name); the guidance fields ("guide": [{"objective",
// "weight"}], "gamma", "gamma_schedule", "guide_samples", "guide_from") only for guided runs, so
// unguided records read as before. parse_run_params(run_params_json(p)) == p.
std::string run_params_json(const RunParams& params);

// Reads run_params_json() output. Missing fields take the defaults above (older records); an
// unknown field, a wrong type or an impossible value (steps 0, shard >= shards, ...) throws
// std::invalid_argument naming the field.
RunParams parse_run_params(std::string_view json);

}  // namespace gsflow::pipeline
