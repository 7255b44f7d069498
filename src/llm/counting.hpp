#pragma once
// The counting conventions of the LLM model, in one place (docs/llm.md states each):
//
// - FLOP: the toolkit's convention (roofline/flop_counting.hpp, docs/model.md): a
//   multiply-accumulate is 2 FLOP, element-wise operators a stated count per element.
// - Bytes (compulsory traffic, docs/model.md): every distinct element moves once per step — weights
//   once, inputs read once, outputs written once; a read and a write are separate traffic.
// - Query-key pairs: which keys a query sees (causal, sliding window, chunked) and which ones an
//   unfused kernel computes anyway (the masked part of the score block it multiplies).
// - Collectives: ring algorithms (Patarasuk & Yuan 2009), bytes sent + received per device.
#include <algorithm>
#include <cmath>
#include <string>

#include "roofline/flop_counting.hpp"

namespace roofline::llm::counting {

// FLOP per element of the element-wise operators and of a matrix product: the toolkit's one
// convention (roofline/flop_counting.hpp), under the names the operator model uses.
inline constexpr double kRmsNormFlop = flop_counting::kRmsNormPerElement;
inline constexpr double kLayerNormFlop = flop_counting::kLayerNormPerElement;
inline constexpr double kSoftmaxFlop = flop_counting::kSoftmaxPerElement;
inline constexpr double kGluProductFlop = flop_counting::kGluProductPerElement;
inline constexpr double kAddFlop = flop_counting::kAddPerElement;

inline double activation_flop(const std::string& act) {
  return flop_counting::activation_per_element(act);
}

/// A matrix product over `rows` rows, in → out: 2·rows·in·out FLOP (+ rows·out for a bias).
inline double matmul_flop(double rows, double in, double out, bool bias = false) {
  return flop_counting::matmul(rows, in, out, bias);
}

// Mixed-precision Adam per parameter it updates (Rajbhandari et al. 2020, ZeRO §3.1): it reads
// the 16-bit gradient and the fp32 master weight, momentum and variance (2 + 4 + 4 + 4 = 14
// bytes) and writes the last three back with the 16-bit weight (14 bytes); about 12 FLOP
// (moments, bias corrections, the update).
inline constexpr double kAdamBytesPerParameter = 28;
inline constexpr double kAdamFlopPerParameter = 12;

// Query-key pairs. Positions are 1-based: a sequence with `past` tokens cached that processes
// `fresh` new ones has queries at positions past+1 … past+fresh, each attending causally.

/// Σ_{q=1}^{n} keys seen by the query at q, with a window W (0: none): min(q, W) each, so
/// n(n+1)/2 for n ≤ W and W(W+1)/2 + (n−W)·W beyond (Mistral 7B, Jiang et al. 2023 §2).
inline double window_prefix(double n, double W) {
  if (W <= 0 || n <= W) return n * (n + 1) / 2;
  return W * (W + 1) / 2 + (n - W) * W;
}
/// Σ_{q=1}^{n} keys seen with chunked attention of chunk C: ((q−1) mod C) + 1 each, so every
/// full chunk contributes C(C+1)/2 and the partial one r(r+1)/2, r = n mod C.
inline double chunk_prefix(double n, double C) {
  const double full = std::floor(n / C), r = n - full * C;
  return full * C * (C + 1) / 2 + r * (r + 1) / 2;
}

/// How a layer's attention limits the keys a query sees.
struct Span {
  enum class Kind { global, window, chunk } kind = Kind::global;
  double size = 0;  ///< W or C
};

/// Pairs a causal kernel that skips what the mask hides computes (fused attention).
inline double causal_pairs(const Span& s, double past, double fresh) {
  switch (s.kind) {
    case Span::Kind::window:
      return window_prefix(past + fresh, s.size) - window_prefix(past, s.size);
    case Span::Kind::chunk:
      return chunk_prefix(past + fresh, s.size) - chunk_prefix(past, s.size);
    case Span::Kind::global:
      break;
  }
  return fresh * past + fresh * (fresh + 1) / 2;
}

/// Keys a step reads per sequence: the block from the first key any of its queries sees to the
/// last new one. An unfused kernel multiplies every fresh query by this whole block (masked
/// entries included), so its score matrix is fresh × keys_read.
///   global: past + fresh; window W: min(past + fresh, W + fresh − 1) (the last W keys of the
///   first query, then one more per query); chunk C: from the start of the first query's chunk.
inline double keys_read(const Span& s, double past, double fresh) {
  switch (s.kind) {
    case Span::Kind::window:
      return std::min(past + fresh, s.size + fresh - 1);
    case Span::Kind::chunk:
      return past + fresh - s.size * std::floor(past / s.size);
    case Span::Kind::global:
      break;
  }
  return past + fresh;
}

/// Tokens a layer keeps in its KV cache for a sequence of `tokens`: all of them; a rolling
/// buffer of W with a window (Mistral 7B §2, "Rolling Buffer Cache"); at most one chunk of C.
inline double cached_tokens(const Span& s, double tokens) {
  return s.kind == Span::Kind::global ? tokens : std::min(tokens, s.size);
}

// Ring collectives over P devices (Patarasuk & Yuan 2009). Bytes counted are sent + received
// per device, because interconnect roofs carry the bidirectional datasheet figure (A100 NVLink
// 600 GB/s = 300 GB/s each way): twice the bytes against twice the rate, the same time as
// NCCL's bus bandwidth convention (nccl-tests doc/PERFORMANCE.md).

/// All-reduce of a message of `bytes`: each device sends 2·(P−1)/P of it and receives as much.
inline double all_reduce_bytes(double bytes, double P) {
  return 4 * (P - 1) / P * bytes;
}
/// Elements each device adds in a ring all-reduce of `elements`: (P−1)/P of them.
inline double all_reduce_flop(double elements, double P) {
  return (P - 1) / P * elements;
}
/// All-gather of a result of `bytes`: (P−1)/P of it sent and as much received.
inline double all_gather_bytes(double bytes, double P) {
  return 2 * (P - 1) / P * bytes;
}
/// Sequential message steps of a ring all-reduce (reduce-scatter + all-gather): 2·(P−1); each
/// costs one link latency α in the α–β model (Hockney 1994; Thakur et al. 2005).
inline double all_reduce_hops(double P) {
  return 2 * (P - 1);
}
inline double all_gather_hops(double P) {
  return P - 1;
}

}  // namespace roofline::llm::counting
