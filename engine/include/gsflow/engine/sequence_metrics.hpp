// Evaluation metrics for sets of generated sequences, all of them: k-mer JS divergence
// (metrics/kmer.hpp), diversity, uniqueness and novelty (metrics/distance.hpp), composition, GC and
// lengths (metrics/composition.hpp), TATA-box profiles (metrics/tata.hpp), the PWM baseline
// (metrics/baselines.hpp) and the whole-set aggregate (metrics/set_metrics.hpp). Include the part
// you need; Sequence and SequenceSet alone are in sequence.hpp.
#pragma once

#include "gsflow/engine/metrics/set_metrics.hpp"
#include "gsflow/engine/metrics/typicality.hpp"
