#pragma once
// How long one timed sample lasts: the engine's sampler and the kernel suite's runner time their
// repetitions alike. Apart from sampler.hpp so that the suite reaches neither io nor JSON
// through the engine's header (docs/architecture.md).

namespace roofline::engine {

/// Duration of one timed sample. Each is long against the clock's resolution (≥ 10⁴ ticks of the
/// monotonic clock) and against the scheduler's time slice, so that one interruption costs a
/// sample a fraction of its time instead of a multiple of it — and short enough that a phase
/// gathers many samples spread over its whole time.
double sample_seconds(bool quick);
/// The monotonic clock's resolution in seconds (clock_getres).
double clock_resolution_seconds();

}  // namespace roofline::engine
