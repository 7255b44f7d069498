// The marker runtime behind marker.h / marker.hpp. Only the standard library: a program links it
// without anything else of ours (the installed roofline::marker target).
//
// Cost model: disabled = one relaxed atomic load and a branch per call. Enabled = a clock read
// at begin and end, a push/pop on a thread-local stack, a pointer-keyed lookup of the region's
// statistics confirmed by comparing the name's text (a buffer reused for another name must not
// count under the first), and an uncontended per-thread lock (taken so the exit-time writer can
// read every thread's table safely). Checked by bench/marker_overhead.cpp (target ≤ 100 ns per
// pair).
//
// fork() without exec: the child starts with empty tables (pthread_atfork), so that what the
// parent recorded before the fork is written once, by the parent. Regions open across the fork
// stay open in the child, restarted at the fork with nothing declared yet.
//
// Nothing throws out of the C functions: an allocation failure drops that call's record and is
// counted ("dropped" in the results).
#include <pthread.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "marker_internal.hpp"
// Valgrind's client requests (Debian's valgrind package): each is a few no-op instructions when
// the program runs natively. Without the header, regions get no simulated Q.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define ROOFLINE_MARKER_CALLGRIND 1
#endif
#include "roofline/marker.h"
#include "roofline/utf8.hpp"

namespace {

struct Stat {
  std::uint64_t calls = 0;
  std::int64_t ns = 0;
  double flops = 0;
  double bytes = 0;
};

struct OpenRegion {
  const char* name;
  std::int64_t start_ns;
  double flops;
  double bytes;
};

struct CacheEntry {
  const char* ptr;   // the name pointer last seen
  std::string text;  // its text then: a pointer hit counts only when the text still matches
  Stat* stat;
};

struct ThreadTable {
  std::mutex mu;  // guards `stats` against the exit-time writer
  std::unordered_map<std::string, Stat> stats;
  std::vector<CacheEntry> cache;  // owner thread only
  std::vector<OpenRegion> stack;  // owner thread only
};

struct Global {
  std::mutex mu;
  std::vector<std::shared_ptr<ThreadTable>> tables;
  std::string dir;
  std::atomic<std::uint64_t> unmatched{0};
  std::atomic<std::uint64_t> dropped{0};     // calls lost to an allocation failure
  std::atomic<std::uint64_t> generation{0};  // bumped by reset_for_testing
};

Global& global() {
  static Global* g = new Global;  // never destroyed: used from atexit and thread exits
  return *g;
}

std::atomic<int> g_state{-1};  // -1 not decided yet, 0 disabled, 1 enabled
// Region boundaries still to dump to callgrind (ROOFLINE_MARKER_SIM under the simulator); 0: off.
std::atomic<int> g_sim_dumps{0};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool env_off(const char* v) {
  return std::strcmp(v, "0") == 0 || strcasecmp(v, "off") == 0 || strcasecmp(v, "false") == 0 ||
         strcasecmp(v, "no") == 0 || v[0] == '\0';
}

void write_at_exit();
void register_fork_handlers();

int decide_state() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* m = std::getenv("ROOFLINE_MARKERS");
    const char* d = std::getenv("ROOFLINE_MARKER_DIR");
    const bool on = m ? !env_off(m) : (d != nullptr && d[0] != '\0');
#ifdef ROOFLINE_MARKER_CALLGRIND
    const char* sim = std::getenv("ROOFLINE_MARKER_SIM");
    if (on && sim && !env_off(sim) && RUNNING_ON_VALGRIND)
      g_sim_dumps.store(roofline::marker_detail::kMaxRegionDumps, std::memory_order_relaxed);
#endif
    if (on) {
      global().dir = d ? d : "";
      std::atexit(write_at_exit);
      register_fork_handlers();
    }
    int expected = -1;
    g_state.compare_exchange_strong(expected, on ? 1 : 0);
  });
  return g_state.load(std::memory_order_relaxed);
}

/// Under the cache simulator: dumps callgrind's counts at a region boundary, labelled so that
/// `roofline profile --instrument` can give each region the parts it was open for. Names with
/// control characters would break the profile's text: not dumped (their region gets no Q).
void sim_boundary(const char* label, const char* name) {
#ifdef ROOFLINE_MARKER_CALLGRIND
  if (g_sim_dumps.load(std::memory_order_relaxed) <= 0) [[likely]]
    return;
  for (const char* c = name; *c; ++c)
    if (static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f) return;
  const int left = g_sim_dumps.fetch_sub(1, std::memory_order_relaxed);
  if (left > 1) {
    const std::string text = std::string(label) + name;
    CALLGRIND_DUMP_STATS_AT(text.c_str());
  } else if (left == 1) {
    CALLGRIND_DUMP_STATS_AT(roofline::marker_detail::kRegionDumpStop);
  }
#else
  (void)label, (void)name;
#endif
}

inline bool enabled() {
  int s = g_state.load(std::memory_order_relaxed);
  if (s < 0) [[unlikely]]
    s = decide_state();
  return s > 0;
}

struct TableHolder {
  std::shared_ptr<ThreadTable> table;
  std::uint64_t generation = ~0ULL;
};

thread_local TableHolder t_holder;
thread_local std::int64_t t_forked_at = 0;  // set in a fork's child: its open regions restart

ThreadTable& table() {
  TableHolder& h = t_holder;
  Global& g = global();
  const auto gen = g.generation.load(std::memory_order_relaxed);
  if (!h.table || h.generation != gen) [[unlikely]] {
    auto fresh = std::make_shared<ThreadTable>();
    if (h.table && t_forked_at != 0) {
      // First use in a fork's child: regions open across the fork stay open here, restarted at
      // the fork with nothing declared (the parent keeps what was declared before it).
      for (const OpenRegion& r : h.table->stack)
        fresh->stack.push_back(OpenRegion{r.name, t_forked_at, 0, 0});
    }
    {
      std::lock_guard lock(g.mu);
      g.tables.push_back(fresh);
    }
    t_forked_at = 0;
    h.table = std::move(fresh);
    h.generation = gen;
  }
  return *h.table;
}

std::atomic<int> g_fail_allocations{0};  // tests: the next N new names fail as out of memory

Stat* new_stat(ThreadTable& t, const std::string& text) {
  if (g_fail_allocations.load(std::memory_order_relaxed) > 0) [[unlikely]]
    if (g_fail_allocations.fetch_sub(1) > 0) throw std::bad_alloc();
  std::lock_guard lock(t.mu);
  return &t.stats[text];  // unordered_map keeps element addresses on rehash
}

Stat* stat_for(ThreadTable& t, const char* name) {
  for (auto& e : t.cache)
    if (e.ptr == name) {
      if (std::strcmp(e.text.c_str(), name) == 0) [[likely]]
        return e.stat;
      // The same buffer now holds another name: look that one up and remember it instead.
      std::string text(name);
      Stat* s = new_stat(t, text);
      e.text = std::move(text);
      e.stat = s;
      return s;
    }
  std::string text(name);
  Stat* s = new_stat(t, text);
  t.cache.push_back(CacheEntry{name, std::move(text), s});
  return s;
}

// fork() without exec: hold the global lock across the fork so that no other thread is inside
// it (registering a table, writing results) when the child's copy is taken; in the child, let go
// of every table so that what the parent recorded is written by the parent only. The handler
// allocates nothing (a child that goes on to exec may only make async-signal-safe calls): the
// tables are abandoned, not freed (other threads' locks may be held in the child's copy and
// their threads do not exist there), and the forking thread makes its new table at its next
// marker call.
void before_fork() {
  global().mu.lock();
}
void after_fork_parent() {
  global().mu.unlock();
}
void after_fork_child() {
  Global& g = global();
  for (auto& t : g.tables) new (&t) std::shared_ptr<ThreadTable>();  // abandon, never freed
  g.tables.clear();                                                  // only empty pointers
  g.unmatched.store(0);
  g.dropped.store(0);
  if (t_holder.table) {
    t_holder.generation = ~0ULL;  // a new table at the next call
    t_forked_at = now_ns();
  }
  g.mu.unlock();
}

void register_fork_handlers() {
  static std::once_flag once;
  std::call_once(once, [] { ::pthread_atfork(before_fork, after_fork_parent, after_fork_child); });
}

/// A region's name as a JSON string's content: quotes, backslashes and control characters
/// escaped; a byte that is not well-formed UTF-8 becomes U+FFFD, as the library's JSON writer
/// makes it (JSON text is UTF-8: one such byte made the whole file unreadable).
void append_escaped(std::string& out, const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    char32_t cp = 0;
    const std::size_t n = roofline::decode_utf8(s, i, cp);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out.append(s, i, n);
    }
    i += n;
  }
}

/// A number as JSON: null where it is not finite (add_flops(NAN), a sum past 1e308), which
/// JSON cannot write and the reader then names as the region's problem.
void append_number(std::string& out, const char* key, double v) {
  // std::to_chars: "%.17g" in the "C" locale, whatever locale the program set (a decimal comma
  // had written "1,5" into the JSON).
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  out += ", \"";
  out += key;
  out += "\": ";
  out += std::isfinite(v) ? std::string(buf, r.ptr) : std::string("null");
}

struct Merged {
  std::uint64_t calls = 0;
  double time = 0;         // max over threads of the thread's summed region time
  double thread_time = 0;  // sum over threads
  int threads = 0;
  double flops = 0;
  double bytes = 0;
};

std::string build_json(std::size_t* regions_out) {
  Global& g = global();
  std::map<std::string, Merged> merged;
  std::uint64_t open_at_exit = 0;
  {
    std::lock_guard lock(g.mu);
    for (const auto& t : g.tables) {
      std::lock_guard tl(t->mu);
      open_at_exit += t->stack.size();
      for (const auto& [name, s] : t->stats) {
        Merged& m = merged[name];
        const double secs = static_cast<double>(s.ns) * 1e-9;
        m.calls += s.calls;
        m.time = std::max(m.time, secs);
        m.thread_time += secs;
        m.threads += 1;
        m.flops += s.flops;
        m.bytes += s.bytes;
      }
    }
  }
  std::string out =
      "{\"schema\": \"roofline.markers\", \"version\": 1, \"pid\": " + std::to_string(::getpid()) +
      ", \"unmatched_ends\": " + std::to_string(g.unmatched.load()) +
      ", \"dropped\": " + std::to_string(g.dropped.load()) +
      ", \"open_at_exit\": " + std::to_string(open_at_exit) + ", \"regions\": [";
  bool first = true;
  char buf[512];
  for (const auto& [name, m] : merged) {
    out += first ? "\n  {\"name\": \"" : ",\n  {\"name\": \"";
    first = false;
    append_escaped(out, name);
    std::snprintf(buf, sizeof buf, "\", \"calls\": %llu, \"threads\": %d",
                  static_cast<unsigned long long>(m.calls), m.threads);
    out += buf;
    append_number(out, "time", m.time);
    append_number(out, "thread_time", m.thread_time);
    append_number(out, "flops", m.flops);
    append_number(out, "bytes", m.bytes);
    out += "}";
  }
  out += "\n]}\n";
  if (regions_out) *regions_out = merged.size();
  return out;
}

void write_at_exit() {
  if (g_state.load() <= 0) return;
  std::size_t n = 0;
  std::string doc;
  try {
    doc = build_json(&n);
  } catch (...) {
    std::fprintf(stderr, "roofline markers: out of memory writing the results\n");
    return;
  }
  const std::string& dir = global().dir;
  if (dir.empty()) {
    std::fprintf(stderr, "roofline markers (%zu regions):\n%s", n, doc.c_str());
    return;
  }
  const std::string path = dir + "/markers-" + std::to_string(::getpid()) + ".json";
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "roofline markers: cannot write %s\n", tmp.c_str());
    return;
  }
  const bool ok = std::fwrite(doc.data(), 1, doc.size(), f) == doc.size();
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), path.c_str()) != 0)
    std::fprintf(stderr, "roofline markers: cannot write %s\n", path.c_str());
}

}  // namespace

extern "C" {

// Each function catches everything: they are called from C and from noexcept C++ (Region), and
// an exception must not cross either.

int roofline_markers_enabled(void) {
  return enabled() ? 1 : 0;
}

int roofline_region_begin(const char* name) {
  if (!enabled() || name == nullptr) return -1;
  try {
    ThreadTable& t = table();
    t.stack.push_back(OpenRegion{name, now_ns(), 0, 0});
    sim_boundary(roofline::marker_detail::kRegionDumpBegin, name);
    return static_cast<int>(t.stack.size() - 1);
  } catch (...) {
    global().dropped.fetch_add(1, std::memory_order_relaxed);
    return -1;
  }
}

void roofline_region_end(const char* name) {
  if (!enabled() || name == nullptr) return;
  const std::int64_t end = now_ns();
  sim_boundary(roofline::marker_detail::kRegionDumpEnd, name);
  try {
    ThreadTable& t = table();
    // The innermost open region of that name; regions opened inside it and never closed are
    // dropped and counted as unmatched.
    std::size_t i = t.stack.size();
    while (i > 0) {
      const char* n = t.stack[i - 1].name;
      if (n == name || std::strcmp(n, name) == 0) break;
      --i;
    }
    if (i == 0) {
      global().unmatched.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    const OpenRegion r = t.stack[i - 1];
    if (t.stack.size() > i)
      global().unmatched.fetch_add(t.stack.size() - i, std::memory_order_relaxed);
    t.stack.resize(i - 1);
    Stat* s = stat_for(t, r.name);
    std::lock_guard lock(t.mu);
    s->calls += 1;
    s->ns += end - r.start_ns;
    s->flops += r.flops;
    s->bytes += r.bytes;
  } catch (...) {
    global().dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void roofline_region_add_flops(double flops) {
  if (!enabled()) return;
  try {
    ThreadTable& t = table();
    if (!t.stack.empty()) t.stack.back().flops += flops;
  } catch (...) {
    global().dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void roofline_region_add_bytes(double bytes) {
  if (!enabled()) return;
  try {
    ThreadTable& t = table();
    if (!t.stack.empty()) t.stack.back().bytes += bytes;
  } catch (...) {
    global().dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void roofline_region_add_flops_to(int handle, double flops) {
  if (handle < 0 || !enabled()) return;
  try {
    ThreadTable& t = table();
    if (static_cast<std::size_t>(handle) < t.stack.size())
      t.stack[static_cast<std::size_t>(handle)].flops += flops;
  } catch (...) {
    global().dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void roofline_region_add_bytes_to(int handle, double bytes) {
  if (handle < 0 || !enabled()) return;
  try {
    ThreadTable& t = table();
    if (static_cast<std::size_t>(handle) < t.stack.size())
      t.stack[static_cast<std::size_t>(handle)].bytes += bytes;
  } catch (...) {
    global().dropped.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // extern "C"

namespace roofline::marker_detail {

void configure_for_testing(bool on, const std::string& dir) {
  decide_state();  // settle the environment's decision first so it cannot override this one
  global().dir = dir;
  if (on) register_fork_handlers();
  g_state.store(on ? 1 : 0);
}

void reset_for_testing() {
  Global& g = global();
  std::lock_guard lock(g.mu);
  g.tables.clear();
  g.unmatched = 0;
  g.dropped = 0;
  g.generation.fetch_add(1);
}

void fail_allocations_for_testing(int n) {
  g_fail_allocations.store(n);
}

std::string results_json() {
  return build_json(nullptr);
}

}  // namespace roofline::marker_detail
