// Double-precision formulas of the Concrete (Gumbel-softmax) distribution: densities, the score
// in log coordinates and the exact posterior over the clean letter of one position (method.md
// sections 1-3). Test oracles, the toy task's exact denoisers and the reference for the samplers'
// float versions. All functions work on one row of k values.
#pragma once

#include <cstddef>

namespace gsflow::engine {

// log density of Concrete(logits, temperature) at x on the open simplex (Maddison et al. 2017):
// log((k-1)!) + (k-1) log lam + sum_i (logits_i - (lam+1) log x_i) - k logsumexp(logits - lam log
// x).
double concrete_log_density(const double* x, const double* logits, std::size_t k,
                            double temperature);

// log density of the ExpConcrete variable y = log x, written as a function of all k coordinates:
// log((k-1)!) + (k-1) log lam + sum_i (logits_i - lam y_i) - k logsumexp(logits - lam y).
double exp_concrete_log_density(const double* y, const double* logits, std::size_t k,
                                double temperature);

// Its gradient in y (the conditional score of method.md section 3), which sums to zero:
// score_i = -lam + k lam softmax(logits - lam y)_i.
void exp_concrete_score(const double* y, const double* logits, std::size_t k, double temperature,
                        double* score);

// Exact posterior P(clean letter = j | x_t) for x_t ~ Concrete(a e_j, lam) with prior
// log_prior (log probabilities, unnormalised is fine); y = log x_t.
void clean_posterior(const double* y, const double* log_prior, std::size_t k, double a,
                     double temperature, double* posterior);

// Exact marginal score sum_j P(j | y) * score(y | e_j) for the same model.
void marginal_score(const double* y, const double* log_prior, std::size_t k, double a,
                    double temperature, double* score);

// Inverse of the map posterior -> marginal score above: recovers P(j | y) from a score
// (given as q = 1/k + score / (k lam), a probability vector). Exact for an exact score; for a
// learned one negative entries are clipped and the result renormalised. a must be > 0.
void posterior_from_score(const double* y, const double* q, std::size_t k, double a,
                          double temperature, double* posterior);

}  // namespace gsflow::engine
