#pragma once
// The FLOP-counting conventions every count in the toolkit follows (docs/model.md, counting
// rules), in one place: the kernel catalogue (kernels.hpp) and the LLM operator model
// (docs/llm.md) both take them from here.
//
// - A multiply-accumulate is 2 FLOP, so a matrix product (m×k)·(k×n) is 2·m·k·n.
// - Element-wise operators count the operations per element below. They are memory-bound at
//   any size, so the convention moves no bound; it is stated so that counts can be compared.
#include <string>

namespace roofline::flop_counting {

/// softmax along a row: max, subtract, exp, accumulate, divide = 5 (exp counted as one).
inline constexpr double kSoftmaxPerElement = 5;
/// LayerNorm: mean (1 add), variance (subtract, multiply, add = 3), normalise (subtract,
/// multiply = 2), affine γ, β (multiply, add = 2) = 8.
inline constexpr double kLayerNormPerElement = 8;
/// RMSNorm x·γ/√(mean x²): square, accumulate, scale, γ = 4.
inline constexpr double kRmsNormPerElement = 4;
/// The gated-linear-unit product act(gate)·up, and a residual add: 1 each.
inline constexpr double kGluProductPerElement = 1;
inline constexpr double kAddPerElement = 1;

/// An activation function per element: SiLU x/(1 + e^−x) negate, exp, add, divide = 4; GELU in
/// its tanh form 9; ReLU 1.
inline double activation_per_element(const std::string& act) {
  if (act.rfind("gelu", 0) == 0) return 9;
  if (act == "relu") return 1;
  return 4;  // silu / swish
}

/// A matrix product over `rows` rows, in → out: 2·rows·in·out FLOP (+ rows·out for a bias).
inline double matmul(double rows, double in, double out, bool bias = false) {
  return 2 * rows * in * out + (bias ? rows * out : 0);
}

}  // namespace roofline::flop_counting
