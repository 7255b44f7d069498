// The whole request: a batch of requests from prompt to last token (TTFT plus the decode steps
// as the context grows), and a continuous-batching engine serving many requests at a
// concurrency, with chunked prefill and mixed prefill + decode steps.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/quantity.hpp"
#include "roofline/strings.hpp"

namespace roofline::llm {
namespace {

constexpr double kMostPrefillChunks = 1e6;

double whole_number(const std::string& t, const std::string& flag, const std::string& spec) {
  const double v = decimal_number(t).value_or(0);
  if (v < 1 || v != std::floor(v) || v > 1e9)
    throw InputError(flag + ": '" + t + "' is not a whole number ≥ 1 (in '" + spec + "')");
  return v;
}

Seconds decode_step_time(const ModelConfig& m, Scenario s, double context, const Roofs& r) {
  s.context = context;
  if (s.pp > 1) return pipeline_step(m, s, Phase::decode, r).steady;
  return evaluate_step(m, s, Phase::decode, r).time;
}

// The prefill of B prompts of S tokens in chunks of c: chunk i processes c tokens of every
// prompt with i·c already cached; logits only in the last chunk.
Seconds chunked_prefill_time(const ModelConfig& m, const Scenario& s, double chunk,
                             const Roofs& r) {
  double done = 0, t = 0;
  while (done < s.prompt) {
    SequenceGroup g;
    g.sequences = s.batch;
    g.fresh = std::min(chunk, s.prompt - done);
    g.past = done;
    g.logits = done + g.fresh >= s.prompt ? 1 : 0;
    g.prompt = true;
    t += evaluate_cost(step_cost(m, s, Phase::prefill, &g, 1), s, r).time.value;
    done += g.fresh;
  }
  return Seconds(t);
}

LatencyStats stats_of(std::vector<double> v) {
  LatencyStats st;
  st.count = v.size();
  if (v.empty()) return st;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  st.mean = Seconds(sum / static_cast<double>(v.size()));
  const std::size_t n = v.size();
  st.median = Seconds(n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
  // Nearest-rank percentile.
  const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(n)));
  st.p99 = Seconds(v[std::min(n, std::max<std::size_t>(rank, 1)) - 1]);
  st.max = Seconds(v.back());
  return st;
}

}  // namespace

std::vector<Request> parse_requests(const std::string& spec, const std::string& flag) {
  if (spec.empty()) throw InputError(flag + ": empty value");
  std::vector<Request> out;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const auto comma = spec.find(',', start);
    const std::string item = spec.substr(start, comma == std::string::npos ? comma : comma - start);
    const auto colon = item.find(':');
    if (colon == std::string::npos)
      throw InputError(flag + ": '" + item + "' must be PROMPT:OUTPUT tokens, e.g. 1024:128");
    out.push_back({whole_number(item.substr(0, colon), flag, spec),
                   whole_number(item.substr(colon + 1), flag, spec)});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {
/// A warning that a run's memory (`what`, `total` in all) exceeds the default memory level's
/// capacity: the figures assume it fits.
std::string memory_beyond_capacity(const std::string& what, Bytes total, double capacity,
                                   const Roofs& r) {
  return what + "; with the weights and activations " + format_bytes(total) + ", beyond the " +
         format_bytes(Bytes(capacity)) + " of " + r.memory_level + " per device: it does not " +
         "fit, and a real engine would queue or preempt requests (the figures assume it fits)";
}
}  // namespace

double check_chunk(double chunk) {
  if (chunk == 0) return 0;  // not given: the prefill in one step
  if (!(chunk >= 1) || !std::isfinite(chunk) || chunk != std::floor(chunk))
    throw InputError("--chunk: must be a whole number of tokens ≥ 1 (got " + format_number(chunk) +
                     "); without it the prefill runs in one step");
  return chunk;
}

double check_count(double v, double most, const std::string& flag) {
  if (!(v >= 1) || v != std::floor(v) || !(v <= most))
    throw InputError(flag + ": must be a whole number from 1 to " + format_number(most) + " (got " +
                     format_number(v) + ")");
  return v;
}

double check_measured_tokens_per_s(double v) {
  if (!(v > 0) || !std::isfinite(v))
    throw InputError("--measured-tokens-per-s: must be a number of tokens per second > 0 (got " +
                     format_number(v) + ")");
  return v;
}

RequestTiming request_timing(const ModelConfig& m, const Scenario& s, double output, const Roofs& r,
                             double chunk) {
  check_count(output, kMostOutputTokens, "--output-tokens");
  check_chunk(chunk);
  Scenario last = s;
  last.context = s.prompt + output - 1;  // the longest context the request reaches
  validate_scenario(m, last);
  RequestTiming t;
  t.batch = s.batch;
  t.prompt = s.prompt;
  t.output = output;
  t.chunk = chunk;
  // Every result carries the warnings of the step it is made of (model caveats, the context, a
  // --pp that does not divide the layers, a narrow-accumulate roof), as analyse's report does.
  t.warnings = estimate_warnings(m, last, r);
  const bool chunked = chunk > 0 && chunk < s.prompt;
  if (chunked) {
    if (s.pp > 1) throw InputError("--chunk with --pp is not modelled");
    // One step is costed per chunk: 1e6 take about half a second; -S 1e9 --chunk 1 took minutes,
    // deaf to Ctrl-C in Python.
    if (const double chunks = std::ceil(s.prompt / chunk); chunks > kMostPrefillChunks)
      throw InputError("--chunk " + format_number(chunk) + ": the prompt of " +
                       format_number(s.prompt, 10) + " tokens is " + format_number(chunks) +
                       " chunks; at most " + format_number(kMostPrefillChunks) +
                       " are simulated (give a larger --chunk)");
  }
  // The batch's KV cache grows to the last token's context: the footprint there, not at the
  // prompt, says whether the request fits; its activations are the largest step's (a chunk's
  // when the prefill is chunked).
  if (const Footprint f = footprint(m, last, r, chunked ? chunk : 0); f.fits && !*f.fits)
    t.warnings.push_back(
        memory_beyond_capacity("at the last output token (L = " + format_number(last.context, 10) +
                                   ") the " + format_number(s.batch, 10) + " sequence(s) hold " +
                                   format_bytes(f.kv_cache) + " of KV cache",
                               f.total(), *f.capacity, r));
  if (chunked) {
    t.ttft = chunked_prefill_time(m, s, chunk, r);
  } else {
    t.ttft = s.pp > 1 ? pipeline_step(m, s, Phase::prefill, r).fill_drain
                      : evaluate_step(m, s, Phase::prefill, r).time;
  }
  // Token 1 comes from the prefill; decode step j produces token j + 1 from token j, which
  // attends over the S prompt tokens and the j generated so far (its own key included).
  double decode = 0;
  for (double j = 1; j < output; ++j) {
    const double step = decode_step_time(m, s, s.prompt + j, r).value;
    if (j == 1) t.first_decode = Seconds(step);
    t.last_decode = Seconds(step);
    decode += step;
  }
  t.decode = Seconds(decode);
  t.e2e = t.ttft + t.decode;
  t.mean_tpot = Seconds(output > 1 ? decode / (output - 1) : 0);
  t.output_tokens_per_s = s.batch * output / t.e2e.value;
  t.requests_per_s = s.batch / t.e2e.value;
  return t;
}

namespace {

/// Bounds on what is simulated, so that a request or a serving run is costed in seconds.
constexpr double kMostServedTokens = 1e7;

/// How the serving is laid out: pipeline stages, engines (one per micro-batch in flight) and
/// the concurrent requests of one engine.
struct ServingShape {
  int stages = 1;
  double engines = 1, per_engine = 1;
};

/// The options checked against the model (requests to serve, a whole concurrency, no more
/// stages than layers, a token budget that holds an engine's decode tokens, every request
/// within the model's limits), and the layout they give.
ServingShape serving_shape(const ModelConfig& m, const Scenario& base, const ServingOptions& o) {
  if (o.requests.empty()) throw InputError("--requests: no requests to serve");
  // The simulation costs each step over its running requests, and steps over every token
  // generated: bounded so that a run ends in seconds (1e4 concurrent requests take about one).
  check_count(o.concurrency, kMostConcurrency, "--concurrency");
  if (!(o.total_requests >= 0) || o.total_requests != std::floor(o.total_requests))
    throw InputError("--num-requests: must be a whole number ≥ 1 (got " +
                     format_number(o.total_requests) + ")");
  const double total = o.total_requests > 0
                           ? o.total_requests
                           : std::max(8 * o.concurrency, static_cast<double>(o.requests.size()));
  double most_output = 0;
  for (const Request& q : o.requests) most_output = std::max(most_output, q.output);
  if (total * most_output > kMostServedTokens)
    throw InputError("--num-requests " + format_number(total) + " × " + format_number(most_output) +
                     " output tokens: at most " + format_number(kMostServedTokens) +
                     " tokens are simulated");
  // Chunked prefill takes a step per max_batched_tokens of prompt: bounded as the decode steps
  // are.
  double most_prompt = 0;
  for (const Request& q : o.requests) most_prompt = std::max(most_prompt, q.prompt);
  if (o.max_batched_tokens > 0 &&
      total * std::ceil(most_prompt / o.max_batched_tokens) > kMostServedTokens)
    throw InputError("--max-batched-tokens " + format_number(o.max_batched_tokens) + ": " +
                     format_number(total) + " prompts of up to " + format_number(most_prompt, 10) +
                     " tokens take more than " + format_number(kMostServedTokens) +
                     " prefill steps (give a larger --max-batched-tokens)");
  ServingShape sh;
  sh.stages = std::max(1, base.pp);
  if (static_cast<double>(sh.stages) > m.layers)
    throw InputError("--pp " + std::to_string(base.pp) + ": more stages than the " +
                     format_number(m.layers) + " layers of " + m.name);
  sh.engines = std::min<double>(sh.stages, o.concurrency);
  sh.per_engine = std::ceil(o.concurrency / sh.engines);
  if (o.max_batched_tokens < 0 ||
      (o.max_batched_tokens > 0 && o.max_batched_tokens < sh.per_engine))
    throw InputError("--max-batched-tokens " + format_number(o.max_batched_tokens) +
                     ": must hold a decode token for each of the " + format_number(sh.per_engine) +
                     " concurrent requests of an engine (or be 0: no chunking)");
  for (const Request& q : o.requests) {
    Scenario s = base;
    s.batch = 1;
    s.prompt = q.prompt;
    s.context = q.prompt + q.output - 1;
    validate_scenario(m, s);
  }
  return sh;
}

/// A request being served: its prompt tokens done, tokens generated, when it was admitted and
/// when its first token came.
struct ServingLive {
  Request q;
  double prefilled = 0, generated = 0, admitted = 0, first = 0;
};
/// An engine: its running requests and when it may start again.
struct ServingEngine {
  std::vector<ServingLive> live;
  double ready = 0;  // when its next iteration may enter the first stage
};

/// The simulation's state: engines, when each stage is free, pending arrivals (in time order),
/// the latencies so far and the token counts.
struct ServingState {
  std::vector<ServingEngine> engine;
  std::vector<double> stage_free;
  std::vector<double> arrivals;
  std::vector<SequenceGroup> groups;
  std::vector<double> ttft, tpot, e2e;
  double next = 0, done = 0, end = 0;
  double peak_kv = 0, peak_tokens = 0;  ///< the most KV-cache bytes (and tokens) held at once
  double peak_activations = 0;          ///< the largest step's activations (step_activations)
  double input_tokens = 0, output_tokens = 0, decode_rows = 0;
  double admitted_count = 0;
};

/// The state at time 0: idle engines and stages, the first requests (up to the concurrency)
/// arrived at once.
ServingState serving_start(const ServingShape& sh, const ServingOptions& o, double total) {
  ServingState st;
  st.engine.resize(static_cast<std::size_t>(sh.engines));
  st.stage_free.assign(static_cast<std::size_t>(sh.stages), 0);
  st.arrivals.assign(static_cast<std::size_t>(std::min(o.concurrency, total)), 0);
  st.next = static_cast<double>(st.arrivals.size());
  return st;
}

/// The engine whose next iteration can start first and that start time.
std::pair<std::size_t, double> serving_pick_engine(const ServingState& st) {
  // The engine whose next iteration can start first (the lowest index among equals); an
  // engine with nothing to do waits for the next arrival.
  const double first_arrival =
      st.arrivals.empty() ? std::numeric_limits<double>::infinity() : st.arrivals.front();
  std::size_t e = st.engine.size();
  double start = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < st.engine.size(); ++i) {
    const double ready = std::max(st.engine[i].ready,
                                  st.engine[i].live.empty() ? first_arrival : st.engine[i].ready);
    const double t = std::max(ready, st.stage_free[0]);
    if (t < start) {
      start = t;
      e = i;
    }
  }
  if (e == st.engine.size()) throw Error("llm: serving simulation has no work left");
  return {e, start};
}

/// Requests that have arrived by the start join the engine, up to its share; the workload's
/// requests are taken in turn.
void serving_admit(ServingState& st, ServingEngine& en, double start, const ServingOptions& o,
                   double per_engine) {
  const auto n = static_cast<double>(o.requests.size());
  while (!st.arrivals.empty() && st.arrivals.front() <= start &&
         static_cast<double>(en.live.size()) < per_engine) {
    ServingLive l;
    l.q = o.requests[static_cast<std::size_t>(std::fmod(st.admitted_count, n))];
    l.admitted = st.arrivals.front();
    st.arrivals.erase(st.arrivals.begin());
    en.live.push_back(l);
    ++st.admitted_count;
  }
}

/// One iteration's work: the prompt tokens each request takes, the decode and prompt rows, the
/// phase.
struct ServingIteration {
  std::vector<double> chunk;
  double decoding = 0, prompt_rows = 0;
  Phase phase = Phase::decode;
};

/// The engine's next iteration as sequence groups: decode tokens first, then prompt tokens in
/// admission order within the budget.
ServingIteration serving_iteration(const ServingEngine& en, double budget,
                                   std::vector<SequenceGroup>& groups) {
  ServingIteration it;
  groups.clear();
  double left = budget;
  for (const ServingLive& l : en.live)
    if (l.prefilled >= l.q.prompt) {
      SequenceGroup g;
      g.fresh = 1;
      g.past = l.q.prompt + l.generated - 1;
      groups.push_back(g);
      left -= 1;
      ++it.decoding;
    }
  it.chunk.assign(en.live.size(), 0);
  for (std::size_t i = 0; i < en.live.size() && left > 0; ++i) {
    const ServingLive& l = en.live[i];
    if (l.prefilled >= l.q.prompt) continue;
    const double c = std::min(l.q.prompt - l.prefilled, left);
    SequenceGroup g;
    g.fresh = c;
    g.past = l.prefilled;
    g.logits = l.prefilled + c >= l.q.prompt ? 1 : 0;
    g.prompt = true;
    groups.push_back(g);
    it.chunk[i] = c;
    left -= c;
    it.prompt_rows += c;
  }
  const bool prompts = static_cast<double>(groups.size()) > it.decoding;
  it.phase = !prompts ? Phase::decode : it.decoding > 0 ? Phase::mixed : Phase::prefill;
  return it;
}

/// When an iteration's tokens are out (the last stage's logits sampled) and when its engine may
/// start the next (with stages, once the token ids are back at the first stage).
struct StagesExit {
  double tokens = 0, ready = 0;
};

/// Through the stages, each taken once the iteration and the stage are free.
StagesExit serving_through_stages(const ModelConfig& m, const Scenario& base, const Roofs& r,
                                  const StepResult& step, const ServingIteration& it,
                                  const std::vector<SequenceGroup>& groups, double start,
                                  std::vector<double>& stage_free) {
  // Through the stages: each takes the iteration's stage time once it and the stage are free.
  double t = start, back = 0;
  if (stage_free.size() == 1) {
    t += step.time.value;
    stage_free[0] = t;
  } else {
    // The last stage's time ends with the token ids' return (pipeline_stage_times).
    // Token ids go back for every row sampled: the decode rows and the prompts completed.
    double sampled = 0;
    for (const SequenceGroup& g : groups) sampled += g.sequences * g.logits;
    const auto taus = pipeline_stage_times(m, base, step, it.prompt_rows, it.decoding, sampled, r);
    for (std::size_t k = 0; k < stage_free.size(); ++k) {
      t = std::max(t, stage_free[k]) + taus[k].value;
      stage_free[k] = t;
    }
    back = pipeline_token_return(sampled, r).value;
  }
  // A step beyond a double's range (a link of 1e-300 B/s, a dtype of 1e300 bytes) would leave
  // no engine a finite start: refused as the single-step figures are.
  if (!std::isfinite(t))
    throw InputError("llm: a serving step of " + m.name + " takes " + format_number(t - start) +
                     " s, not a finite time: check the roofs, dtypes and links given");
  return {t - back, t};
}

/// Every request of the engine advanced by what the iteration (ending at t) did for it: prompt
/// tokens, its first token with its TTFT, or one more decode token.
void serving_advance(ServingEngine& en, const ServingIteration& it, double t, ServingState& st) {
  for (std::size_t i = 0; i < en.live.size(); ++i) {
    ServingLive& l = en.live[i];
    if (it.chunk[i] > 0) {
      l.prefilled += it.chunk[i];
      st.input_tokens += it.chunk[i];
      if (l.prefilled >= l.q.prompt) {
        l.generated = 1;  // the prefill samples the first token
        l.first = t;
        st.ttft.push_back(t - l.admitted);
        st.output_tokens += 1;
      }
    } else if (l.prefilled >= l.q.prompt && l.first < t) {
      l.generated += 1;
      st.output_tokens += 1;
    }
  }
}

/// The KV cache the engines hold now (every running request's prompt tokens cached so far and
/// its generated tokens), kept if it is the most so far.
void serving_note_memory(const ModelConfig& m, const Scenario& base, ServingState& st) {
  double bytes = 0, tokens = 0;
  for (const ServingEngine& en : st.engine)
    for (const ServingLive& l : en.live) {
      // Cached: the prompt tokens prefilled and every generated token fed back (the newest
      // is not yet).
      const double held = l.prefilled + std::max(0.0, l.generated - 1);
      tokens += held;
      bytes += kv_cache_bytes(m, base, 1, held).value;
    }
  if (bytes > st.peak_kv) {
    st.peak_kv = bytes;
    st.peak_tokens = tokens;
  }
}

/// Finished requests leave with their E2E and TPOT; their clients send the next ones at once.
void serving_retire(ServingEngine& en, double t, double total, ServingState& st) {
  // Finished requests leave; their clients send the next ones at once (a closed loop).
  for (std::size_t i = 0; i < en.live.size();) {
    const ServingLive& l = en.live[i];
    if (l.prefilled >= l.q.prompt && l.generated >= l.q.output) {
      st.e2e.push_back(t - l.admitted);
      if (l.q.output > 1) st.tpot.push_back((t - l.first) / (l.q.output - 1));
      en.live.erase(en.live.begin() + static_cast<std::ptrdiff_t>(i));
      ++st.done;
      if (st.next < total) {
        st.arrivals.insert(std::upper_bound(st.arrivals.begin(), st.arrivals.end(), t), t);
        ++st.next;
      }
    } else {
      ++i;
    }
  }
}

/// The result's rates and latency statistics over the whole run.
void serving_summarise(const ServingState& st, double total, ServingResult& res) {
  const double end = st.end;
  res.makespan = Seconds(end);
  res.output_tokens_per_s = st.output_tokens / end;
  res.input_tokens_per_s = st.input_tokens / end;
  res.requests_per_s = total / end;
  res.ttft = stats_of(st.ttft);
  res.tpot = stats_of(st.tpot);
  res.e2e = stats_of(st.e2e);
  res.mean_decode_batch = res.decode_steps > 0 ? st.decode_rows / res.decode_steps : 0;
  res.mean_step = Seconds(end / res.steps);
}

}  // namespace

// A continuous-batching engine (Yu et al., Orca, OSDI 2022): every iteration takes the decode
// token of each running request and, within the token budget, prompt tokens in admission order.
// With pipeline stages, pp engines (one per micro-batch in flight, as pipelined serving engines
// run "virtual engines") share the stages: the concurrency is split evenly, each engine's
// iteration passes every stage in turn, and an engine starts its next iteration once its last
// one has left the final stage (its tokens are needed). Each stage of an iteration takes its
// own time plus the send to the next — the last stage's is the sampled token ids back to the
// first (pipeline_stage_times; the LM head makes the last stage the slowest), as
// pipeline_step's path, token return and slowest stage do.
ServingResult simulate_serving(const ModelConfig& m, const Scenario& base, const ServingOptions& o,
                               const Roofs& r) {
  const ServingShape sh = serving_shape(m, base, o);
  ServingResult res;
  res.options = o;
  res.stages = sh.stages;
  res.engines = sh.engines;
  const double total = o.total_requests > 0
                           ? o.total_requests
                           : std::max(8 * o.concurrency, static_cast<double>(o.requests.size()));
  res.requests = total;
  const double budget =
      o.max_batched_tokens > 0 ? o.max_batched_tokens : std::numeric_limits<double>::infinity();
  ServingState st = serving_start(sh, o, total);
  while (st.done < total) {
    // The engine that starts first, with the requests that have arrived for it.
    const auto [e, start] = serving_pick_engine(st);
    ServingEngine& en = st.engine[e];
    serving_admit(st, en, start, o, sh.per_engine);
    // One iteration: its cost, then its time through the stages.
    const ServingIteration it = serving_iteration(en, budget, st.groups);
    const StepCost cost = step_cost(m, base, it.phase, st.groups.data(), st.groups.size());
    st.peak_activations = std::max(st.peak_activations, step_activations(m, base, cost).value);
    const StepResult step = evaluate_cost(cost, base, r);
    const StagesExit out =
        serving_through_stages(m, base, r, step, it, st.groups, start, st.stage_free);
    const double t = out.tokens;
    en.ready = out.ready;
    st.end = std::max(st.end, t);
    res.steps += 1;
    res.mixed_steps += it.phase == Phase::mixed;
    res.decode_steps += it.decoding > 0;
    st.decode_rows += it.decoding;
    // The requests advanced; the finished ones leave and are replaced.
    serving_advance(en, it, t, st);
    serving_note_memory(m, base, st);
    serving_retire(en, t, total, st);
    if (res.steps > 5e7) throw Error("llm: serving simulation did not finish");
  }
  serving_summarise(st, total, res);
  res.peak_kv_cache = Bytes(st.peak_kv);
  res.peak_tokens = st.peak_tokens;
  res.peak_activations = Bytes(st.peak_activations);
  // The weights stay; the KV cache peaks when the most tokens are in flight; the activations
  // are the largest step's that ran (48 prompts of 8000 tokens prefilled in one step hold
  // 36 GB on Llama-3-8B, where a batch-1, context-1 step's were taken before).
  Scenario one = base;
  one.batch = 1;
  one.prompt = one.context = 1;
  const Footprint f = footprint(m, one, r);
  // The same total is judged and printed: weights, the peak KV cache, the peak activations
  // (the two peaks need not be of one step: the sum is the most the run can need).
  const Bytes held = f.weights + res.peak_kv_cache + res.peak_activations;
  // A request's last token attends over its prompt and all but that token: the longest context
  // of the workload, warned about past max_positions as a single request is.
  double longest = 0;
  for (const Request& q : o.requests) longest = std::max(longest, q.prompt + q.output - 1);
  Scenario longest_s = base;
  longest_s.context = longest;
  res.warnings = estimate_warnings(m, longest_s, r);
  if (f.capacity && held.value > *f.capacity)
    res.warnings.push_back(
        memory_beyond_capacity("at its peak the run holds " + format_number(st.peak_tokens, 10) +
                                   " tokens in " + format_bytes(res.peak_kv_cache) + " of KV cache",
                               held, *f.capacity, r));
  return res;
}

}  // namespace roofline::llm
