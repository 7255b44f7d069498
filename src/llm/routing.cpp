// Expert parallelism's busiest device (docs/llm.md, "Expert parallel"). A step of an
// expert-parallel MoE layer ends when its busiest device does, so it is costed at the expected
// maximum over devices, not at the mean.
//
// Assumption (stated in docs/llm.md): uniform independent routing — each of T tokens picks a
// k-subset of the E experts uniformly at random, independently of the other tokens; the experts
// are split into P groups of G = E/P (one group per device). Real routers are not uniform (load
// balancing losses push towards it; DeepSeek-V3's group-limited routing is not modelled).
//
// Distinct experts touched on the busiest device, exactly:
// 1. The number s of distinct experts touched by T tokens is a Markov chain: a token adds j new
//    experts with the hypergeometric probability C(E − s, j)·C(s, k − j)/C(E, k).
// 2. The touched set S is exchangeable (its law is invariant under permuting the experts), so
//    given |S| = s it is a uniform s-subset of the E experts. The probability that no group of G
//    holds more than x of a uniform s-subset is the number of such subsets over C(E, s): the
//    coefficient of z^s in (Σ_{j≤x} C(G, j)·z^j)^P over C(E, s), built group by group with
//    hypergeometric weights (each ≤ 1, so no binomial overflows).
// 3. E[max] = Σ_{x=0}^{G−1} P(max > x) = Σ_x (1 − Σ_s P(|S| = s)·P(max ≤ x | s)).
// Token-expert rows on the busiest device: each touched expert has at least one row, and the
// busiest device at least the mean, so E[max rows] ≥ max(T·k/P, E[max touched]) — used as a
// lower bound (its exact law couples the devices through each token's k-subset; the bound is
// tight at T = 1 and within the fluctuation √(T·k/P) of the mean at large T).
#include <algorithm>
#include <cmath>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"

namespace roofline::llm {
namespace {

// A vector of doubles indexed by int (the counts here are small and never negative).
struct Vec {
  std::vector<double> v;
  explicit Vec(int n) : v(static_cast<std::size_t>(n), 0.0) {}
  double& operator[](int i) { return v[static_cast<std::size_t>(i)]; }
  double operator[](int i) const { return v[static_cast<std::size_t>(i)]; }
  void zero() { std::fill(v.begin(), v.end(), 0.0); }
  void swap(Vec& o) { v.swap(o.v); }
};

// log C(n, r) from a table of log n! (n ≤ the experts).
struct LogChoose {
  Vec log_factorial;
  explicit LogChoose(int most) : log_factorial(most + 1) {
    for (int n = 0; n <= most; ++n) log_factorial[n] = std::lgamma(n + 1.0);
  }
  double operator()(int n, int r) const {
    if (r < 0 || r > n) return -INFINITY;
    return log_factorial[n] - log_factorial[r] - log_factorial[n - r];
  }
};

// P(|S| = s) after T tokens (step 1). Stops early once every expert is touched (all but 1e-15).
Vec touched_distribution(int E, int k, double T, const LogChoose& log_choose) {
  Vec p(E + 1), next(E + 1);
  p[0] = 1;
  // trans[s·(k+1) + j]: a token touching j new experts when s are touched.
  Vec trans((E + 1) * (k + 1));
  const double all = log_choose(E, k);
  for (int s = 0; s <= E; ++s)
    for (int j = 0; j <= k; ++j)
      trans[s * (k + 1) + j] = std::exp(log_choose(E - s, j) + log_choose(s, k - j) - all);
  for (double t = 0; t < T; ++t) {
    next.zero();
    for (int s = 0; s <= E; ++s) {
      if (p[s] == 0) continue;
      for (int j = 0; j <= k && s + j <= E; ++j) next[s + j] += p[s] * trans[s * (k + 1) + j];
    }
    p.swap(next);
    // The mass left below E, not p[E] against 1: the sum drifts from 1 by rounding, and a p[E]
    // that never passed 1 − 1e-15 ran the loop T times (minutes for a bisection's batches).
    double rest = 0;
    for (int s = 0; s < E; ++s) rest += p[s];
    if (rest < 1e-15) {
      p.zero();
      p[E] = 1;
      break;
    }
  }
  return p;
}

// E[max over the P groups of touched experts] for an integer T (steps 2 and 3).
double busiest_touched(int E, int k, int P, double T) {
  if (T <= 0) return 0;
  const int G = E / P;
  const LogChoose log_choose(E);
  const Vec p = touched_distribution(E, k, T, log_choose);
  if (p[E] == 1) return G;
  // hyper[g][t][j]: given t of the first (g+1)·G experts chosen uniformly, j of them in group
  // g+1's G: C(g·G, t − j)·C(G, j) / C((g+1)·G, t).
  const auto idx = [&](int g, int t, int j) { return (g * (E + 1) + t) * (G + 1) + j; };
  Vec hyper(P * (E + 1) * (G + 1));
  for (int g = 0; g < P; ++g)
    for (int t = 0; t <= (g + 1) * G; ++t)
      for (int j = 0; j <= std::min(t, G); ++j)
        hyper[idx(g, t, j)] =
            std::exp(log_choose(g * G, t - j) + log_choose(G, j) - log_choose((g + 1) * G, t));
  double expected = 0;
  Vec q(E + 1), nq(E + 1);
  for (int x = 0; x < G; ++x) {
    // q[t]: P(every group so far holds ≤ x of a uniform t-subset of the experts so far).
    q.zero();
    for (int t = 0; t <= x; ++t) q[t] = 1;
    for (int g = 1; g < P; ++g) {
      nq.zero();
      for (int t = 0; t <= (g + 1) * G; ++t)
        for (int j = 0; j <= std::min({x, t, G}); ++j) nq[t] += q[t - j] * hyper[idx(g, t, j)];
      q.swap(nq);
    }
    double at_most = 0;
    for (int s = 0; s <= E; ++s) at_most += p[s] * q[s];
    expected += 1 - at_most;
  }
  return expected;
}

// The busiest device's touched experts, remembered per (E, k, P, T): a serving simulation
// evaluates the same token counts many times.
double busiest_touched_cached(int E, int k, int P, double T) {
  struct Entry {
    int E, k, P;
    double T, value;
  };
  thread_local std::vector<Entry> cache;
  for (const Entry& e : cache)
    if (e.E == E && e.k == k && e.P == P && e.T == T) return e.value;
  const double v = busiest_touched(E, k, P, T);
  if (cache.size() >= 4096) cache.clear();
  cache.push_back({E, k, P, T, v});
  return v;
}

}  // namespace

ExpertLoad expert_parallel_load(double experts, double per_token, double devices, double tokens) {
  const int E = static_cast<int>(experts), k = static_cast<int>(per_token),
            P = static_cast<int>(devices);
  if (E < 1 || k < 1 || k > E || P < 1 || E % P != 0 || !(tokens >= 0) || !std::isfinite(tokens))
    throw Error("llm: expert-parallel load of " + std::to_string(E) + " experts, " +
                std::to_string(k) + " per token over " + std::to_string(P) + " devices");
  ExpertLoad l;
  // Mean: each expert is untouched by one token with probability 1 − k/E.
  l.touched_mean = experts * (1 - std::pow(1 - per_token / experts, tokens)) / devices;
  // A fractional token count (a prompt split over context-parallel devices): linear between
  // the two whole counts around it.
  const double lo = std::floor(tokens), frac = tokens - lo;
  const double at_lo = busiest_touched_cached(E, k, P, lo);
  l.touched_busiest =
      frac > 0 ? at_lo + frac * (busiest_touched_cached(E, k, P, lo + 1) - at_lo) : at_lo;
  l.rows_busiest = std::max(tokens * per_token / devices, l.touched_busiest);
  return l;
}

}  // namespace roofline::llm
