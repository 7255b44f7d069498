#pragma once
// Pieces shared between the suite's source files (not part of the public API).
#include <cstddef>
#include <memory>
#include <string>

#include "roofline/suite.hpp"

namespace roofline::suite {

/// A = (5i + 3k) mod 4, B = (3k + 2j) mod 5 (exact small integers).
template <class T>
void init_gemm_inputs(T* A, T* B, std::size_t n, const Context& ctx);
/// Freivalds' check C·r = A·(B·r) in exact integers; "" when right.
template <class T>
std::string check_gemm(const std::string& name, const T* C, std::size_t n);
/// Order n of square gemm with three n×n matrices of `element_bytes` in `ws` bytes.
std::size_t gemm_order_for(double ws, double element_bytes, const std::string& name);
/// Tile edge of the tiled gemm for these caches.
std::size_t gemm_tile_for(const Machine& c);
/// OpenBLAS dgemm (fp32 = false) or sgemm; throws Unavailable without OpenBLAS.
std::unique_ptr<Workload> make_blas_workload(const Context& ctx, bool fp32, double ws);

}  // namespace roofline::suite
