/* The flopcount runtime: linked into programs built with the flopcount plugin. It decides per
 * run, from the environment, what the instrumented program does:
 *
 *   ROOFLINE_FLOPCOUNT=count  the counted clones run; at exit the FLOP per function, precision
 *                             and vector width (and per marker region) are written;
 *   ROOFLINE_FLOPCOUNT=time   the original code runs, and a CPU-time sampler (the kernel's
 *                             task-clock event, else a SIGPROF interval timer) records the
 *                             interrupted instruction, for per-function time
 *                             (ROOFLINE_FLOPCOUNT_SAMPLER=itimer: the SIGPROF timer always);
 *   unset / anything else     the original code runs and nothing is written.
 *
 * Results go to $ROOFLINE_FLOPCOUNT_DIR/flopcount-<pid>.json (written to a temporary name and
 * renamed), or to stderr when the directory is not set. `roofline profile --instrument` sets
 * both and reads the files back (src/probe/instrument). The module tables are described in
 * flopcount_abi.h.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "flopcount_abi.h"

#define RFC_EXPORT __attribute__((visibility("default")))

enum { MODE_OFF = 0, MODE_COUNT = 1, MODE_TIME = 2 };

/* Categories: (kind, precision, width code, masked) as one index, for region snapshots. Width
 * code: 0 scalar, else log2(bits) - 3 (16 bits → 1 ... 512 → 6 ... 4096 → 9). */
#define WIDTH_CODES 10
#define CATEGORIES (RFC_KIND_COUNT * RFC_PREC_COUNT * WIDTH_CODES * 2)

static int width_code(unsigned bits) {
  int c = 0;
  if (bits == 0) return 0;
  while (bits > 8 && c < WIDTH_CODES) {
    bits >>= 1;
    ++c;
  }
  return c < WIDTH_CODES ? c : WIDTH_CODES - 1;
}
static unsigned width_of_code(int code) {
  return code == 0 ? 0u : 8u << code;
}

static int category(const struct rfc_entry* e) {
  const unsigned kind = e->kind < RFC_KIND_COUNT ? e->kind : RFC_KIND_UNCOUNTED;
  const unsigned prec = e->precision < RFC_PREC_COUNT ? e->precision : RFC_PREC_NONE;
  return (
      int)(((kind * RFC_PREC_COUNT + prec) * WIDTH_CODES + (unsigned)width_code(e->width_bits)) *
               2u +
           (e->masked ? 1u : 0u));
}

static const char* kind_name(unsigned k) {
  static const char* names[] = {"flops", "int_ops", "calls", "math", "uncounted"};
  return k < RFC_KIND_COUNT ? names[k] : "uncounted";
}
static const char* precision_name(unsigned p) {
  static const char* names[] = {"",     "fp16",  "bf16", "fp32", "fp64",
                                "fp80", "fp128", "int8", "int16"};
  return p < RFC_PREC_COUNT ? names[p] : "";
}

/* --- state ----------------------------------------------------------------------------------- */

struct block {
  uint64_t* counts;
  struct block* next;
};

struct module_state {
  struct rfc_module* mod;
  uint32_t index;
  struct block* blocks; /* one per thread that ran counted code of this module */
  uint64_t* sink;       /* counts of threads whose block could not be allocated (not reported) */
  char* retired;        /* the module's function results, kept when it was unloaded */
};

struct frame {
  const char* name;
  uint64_t* start; /* CATEGORIES counts at the region's start */
};

struct thread_state {
  uint64_t** blocks; /* per module index */
  uint32_t block_cap;
  struct frame* frames;
  uint32_t frame_count, frame_cap;
};

struct region {
  char* name;
  uint64_t calls;
  uint64_t sums[CATEGORIES];
  struct region* next;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_mode = MODE_OFF;
static const char* g_dir;
static struct module_state** g_modules;
static uint32_t g_module_count, g_module_cap;
static struct region* g_regions;
static atomic_ulong g_dropped; /* thread blocks or region records that could not be allocated */
static int g_done;
static __thread struct thread_state* t_self;

/* --- sampling (time mode) -------------------------------------------------------------------- */

struct sample {
  uintptr_t pc;
  int32_t tid;
};
static struct sample* g_samples;
static size_t g_sample_cap;
static atomic_size_t g_sample_count;
static long g_interval_us = 500;
static double g_cpu_start, g_cpu_end;
static const char* g_sampling_problem;
static const char* g_sampler = "";
static int g_perf_fd = -1;
static struct sigaction g_old_sigtrap;

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

static double process_cpu_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void on_sample(int sig, siginfo_t* info, void* context) {
  if (sig == SIGTRAP && (!info || info->si_code != TRAP_PERF)) {
    /* not ours (a breakpoint): what would have happened without us */
    if (g_old_sigtrap.sa_flags & SA_SIGINFO) {
      if (g_old_sigtrap.sa_sigaction) g_old_sigtrap.sa_sigaction(sig, info, context);
      return;
    }
    if (g_old_sigtrap.sa_handler == SIG_IGN) return;
    if (g_old_sigtrap.sa_handler != SIG_DFL) {
      g_old_sigtrap.sa_handler(sig);
      return;
    }
    signal(SIGTRAP, SIG_DFL);
    raise(SIGTRAP);
    return;
  }
  const int saved = errno;
  uintptr_t pc = 0;
#if defined(__x86_64__)
  pc = (uintptr_t)((ucontext_t*)context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  pc = (uintptr_t)((ucontext_t*)context)->uc_mcontext.pc;
#else
  (void)context;
#endif
  const size_t i = atomic_fetch_add_explicit(&g_sample_count, 1, memory_order_relaxed);
  if (i < g_sample_cap) {
    g_samples[i].pc = pc;
    g_samples[i].tid = (int32_t)syscall(SYS_gettid);
  }
  errno = saved;
}

static void arm_timer(long us) {
  struct itimerval it;
  it.it_interval.tv_sec = us / 1000000;
  it.it_interval.tv_usec = us % 1000000;
  it.it_value = it.it_interval;
  setitimer(ITIMER_PROF, &it, NULL);
}

/* Preferred sampler: the kernel's task-clock software event (works without a PMU), one sample
 * every interval of the thread's CPU time, delivered as a synchronous SIGTRAP to the thread that
 * ran (perf_event_open(2): sigtrap, inherited by threads created later; Linux >= 5.13). Its
 * hrtimer gives sub-millisecond intervals. */
static int start_task_clock(void) {
#if defined(PERF_ATTR_SIZE_VER7)
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = (uint64_t)g_interval_us * 1000u;
  attr.inherit = 1;
  attr.sigtrap = 1;
  attr.remove_on_exec = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.sig_data = 0x524f4f464cULL;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGTRAP, &sa, &g_old_sigtrap) != 0) return 0;
  const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0x8 /* PERF_FLAG_FD_CLOEXEC */);
  if (fd < 0) {
    sigaction(SIGTRAP, &g_old_sigtrap, NULL);
    return 0;
  }
  g_perf_fd = (int)fd;
  g_sampler = "task-clock";
  return 1;
#else
  return 0;
#endif
}

static void start_sampling(void) {
#if !defined(__x86_64__) && !defined(__aarch64__)
  g_sampling_problem = "sampling is implemented for x86-64 and AArch64 only";
  return;
#endif
  g_sample_cap = (size_t)1 << 20;
  void* mem = mmap(NULL, g_sample_cap * sizeof(struct sample), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) {
    g_sample_cap = 0;
    g_sampling_problem = "no memory for the sample buffer";
    return;
  }
  g_samples = mem;
  g_cpu_start = process_cpu_seconds();
  /* ROOFLINE_FLOPCOUNT_SAMPLER=itimer: the fallback even where task-clock works (tests, and
   * programs that use SIGTRAP themselves). */
  const char* which = getenv("ROOFLINE_FLOPCOUNT_SAMPLER");
  if (!(which && strcmp(which, "itimer") == 0) && start_task_clock()) return;
  /* Fallback: SIGPROF on process CPU time, which the kernel checks on its timer tick (4 ms at
   * HZ=250), whatever interval is asked. */
  struct sigaction old;
  if (sigaction(SIGPROF, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
      old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    g_sampling_problem = "the program already handles SIGPROF and task-clock sampling failed";
    g_sample_cap = 0;
    return;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sample;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPROF, &sa, NULL);
  g_sampler = "itimer-prof";
  arm_timer(g_interval_us);
}

static void stop_sampling(void) {
  if (g_perf_fd >= 0) {
    ioctl(g_perf_fd, PERF_EVENT_IOC_DISABLE, 0);
    close(g_perf_fd);
    g_perf_fd = -1;
  } else {
    arm_timer(0);
  }
  g_cpu_end = process_cpu_seconds();
}

/* --- fork: the child starts with empty counts, as the marker library's tables do ------------- */

static void before_fork(void) {
  pthread_mutex_lock(&g_lock);
}
static void after_fork_parent(void) {
  pthread_mutex_unlock(&g_lock);
}
static void after_fork_child(void) {
  for (uint32_t i = 0; i < g_module_count; ++i) {
    struct module_state* ms = g_modules[i];
    for (struct block* b = ms->blocks; b; b = b->next)
      memset(b->counts, 0, sizeof(uint64_t) * (ms->mod->slot_count ? ms->mod->slot_count : 1));
  }
  g_regions = NULL; /* the parent's records are the parent's to write */
  struct thread_state* ts = t_self;
  if (ts)
    for (uint32_t i = 0; i < ts->frame_count; ++i)
      memset(ts->frames[i].start, 0, sizeof(uint64_t) * CATEGORIES);
  pthread_mutex_init(&g_lock, NULL);
  if (g_mode == MODE_TIME && g_sample_cap) {
    atomic_store(&g_sample_count, 0);
    g_cpu_start = process_cpu_seconds();
    if (g_perf_fd < 0) arm_timer(g_interval_us); /* interval timers are not inherited */
    /* the task-clock event is inherited by the child; its descriptor is the parent's copy */
  }
}

static void write_results(void);

static void initialise(void) {
  const char* mode = getenv("ROOFLINE_FLOPCOUNT");
  if (mode && strcmp(mode, "count") == 0)
    g_mode = MODE_COUNT;
  else if (mode && strcmp(mode, "time") == 0)
    g_mode = MODE_TIME;
  else
    return;
  g_dir = getenv("ROOFLINE_FLOPCOUNT_DIR");
  if (g_dir && !*g_dir) g_dir = NULL;
  const char* interval = getenv("ROOFLINE_FLOPCOUNT_INTERVAL_US");
  if (interval) {
    char* end = NULL;
    const long v = strtol(interval, &end, 10);
    if (end && *end == '\0' && v >= 100 && v <= 1000000) g_interval_us = v;
  }
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  atexit(write_results);
  if (g_mode == MODE_TIME) start_sampling();
}

static struct thread_state* self(void) {
  if (!t_self) t_self = calloc(1, sizeof(struct thread_state));
  return t_self;
}

/* --- the interface the plugin calls ---------------------------------------------------------- */

RFC_EXPORT int32_t __roofline_fc_register(struct rfc_module* m) {
  pthread_once(&g_once, initialise);
  if (g_mode == MODE_OFF || !m) return 0;
  if (m->abi_version != RFC_ABI_VERSION) {
    fprintf(stderr,
            "roofline flopcount: module %s was built for ABI %u, this runtime is %d: "
            "not counted\n",
            m->source ? m->source : "?", m->abi_version, RFC_ABI_VERSION);
    return 0;
  }
  struct module_state* ms = calloc(1, sizeof *ms);
  if (!ms) return 0;
  ms->mod = m;
  if (g_mode == MODE_COUNT) {
    ms->sink = calloc(m->slot_count ? m->slot_count : 1, sizeof(uint64_t));
    if (!ms->sink) {
      free(ms);
      return 0;
    }
  }
  pthread_mutex_lock(&g_lock);
  if (g_module_count == g_module_cap) {
    const uint32_t cap = g_module_cap ? 2 * g_module_cap : 16;
    struct module_state** grown = realloc(g_modules, cap * sizeof *grown);
    if (!grown) {
      pthread_mutex_unlock(&g_lock);
      free(ms->sink);
      free(ms);
      return 0;
    }
    g_modules = grown;
    g_module_cap = cap;
  }
  ms->index = g_module_count;
  g_modules[g_module_count++] = ms;
  m->runtime = ms;
  pthread_mutex_unlock(&g_lock);
  return g_mode == MODE_COUNT ? 1 : 0;
}

RFC_EXPORT uint64_t* __roofline_fc_thread_block(struct rfc_module* m, uint64_t** tls) {
  struct module_state* ms = m->runtime;
  uint64_t* counts = calloc(m->slot_count ? m->slot_count : 1, sizeof(uint64_t));
  struct block* b = counts ? malloc(sizeof *b) : NULL;
  struct thread_state* ts = self();
  pthread_mutex_lock(&g_lock);
  if (ts && b && ts->block_cap <= ms->index) {
    uint32_t cap = ts->block_cap ? ts->block_cap : 16;
    while (cap <= ms->index) cap *= 2;
    uint64_t** grown = realloc(ts->blocks, cap * sizeof *grown);
    if (grown) {
      memset(grown + ts->block_cap, 0, (cap - ts->block_cap) * sizeof *grown);
      ts->blocks = grown;
      ts->block_cap = cap;
    }
  }
  if (!ts || !b || ts->block_cap <= ms->index) {
    pthread_mutex_unlock(&g_lock);
    free(counts);
    free(b);
    atomic_fetch_add(&g_dropped, 1);
    *tls = ms->sink;
    return ms->sink;
  }
  b->counts = counts;
  b->next = ms->blocks;
  ms->blocks = b;
  ts->blocks[ms->index] = counts;
  pthread_mutex_unlock(&g_lock);
  *tls = counts;
  return counts;
}

/* The calling thread's counts by category, over every loaded module. */
static void thread_sums(struct thread_state* ts, uint64_t* out) {
  memset(out, 0, sizeof(uint64_t) * CATEGORIES);
  pthread_mutex_lock(&g_lock);
  for (uint32_t i = 0; i < g_module_count && i < ts->block_cap; ++i) {
    const uint64_t* counts = ts->blocks[i];
    const struct module_state* ms = g_modules[i];
    if (!counts || ms->retired) continue;
    const struct rfc_entry* e = ms->mod->entries;
    for (uint32_t k = 0; k < ms->mod->entry_count; ++k)
      out[category(&e[k])] += counts[e[k].slot] * e[k].weight;
  }
  pthread_mutex_unlock(&g_lock);
}

RFC_EXPORT void __roofline_fc_region_begin(const char* name) {
  if (g_mode != MODE_COUNT || !name) return;
  struct thread_state* ts = self();
  if (!ts) return;
  if (ts->frame_count == ts->frame_cap) {
    const uint32_t cap = ts->frame_cap ? 2 * ts->frame_cap : 8;
    struct frame* grown = realloc(ts->frames, cap * sizeof *grown);
    if (!grown) {
      atomic_fetch_add(&g_dropped, 1);
      return;
    }
    ts->frames = grown;
    ts->frame_cap = cap;
  }
  uint64_t* start = malloc(sizeof(uint64_t) * CATEGORIES);
  if (!start) {
    atomic_fetch_add(&g_dropped, 1);
    return;
  }
  thread_sums(ts, start);
  ts->frames[ts->frame_count].name = name;
  ts->frames[ts->frame_count].start = start;
  ++ts->frame_count;
}

RFC_EXPORT void __roofline_fc_region_end(const char* name) {
  if (g_mode != MODE_COUNT || !name) return;
  struct thread_state* ts = t_self;
  if (!ts) return;
  uint32_t f = ts->frame_count;
  while (f > 0 && strcmp(ts->frames[f - 1].name, name) != 0) --f;
  if (f == 0) return; /* no open region of that name on this thread */
  struct frame fr = ts->frames[f - 1];
  memmove(&ts->frames[f - 1], &ts->frames[f], (ts->frame_count - f) * sizeof(struct frame));
  --ts->frame_count;
  uint64_t now[CATEGORIES];
  thread_sums(ts, now);
  pthread_mutex_lock(&g_lock);
  struct region* r = g_regions;
  while (r && strcmp(r->name, name) != 0) r = r->next;
  if (!r) {
    r = calloc(1, sizeof *r);
    if (r) r->name = strdup(name);
    if (r && r->name) {
      r->next = g_regions;
      g_regions = r;
    } else {
      free(r);
      r = NULL;
    }
  }
  if (r) {
    ++r->calls;
    for (int c = 0; c < CATEGORIES; ++c)
      if (now[c] > fr.start[c]) r->sums[c] += now[c] - fr.start[c];
  } else {
    atomic_fetch_add(&g_dropped, 1);
  }
  pthread_mutex_unlock(&g_lock);
  free(fr.start);
}

/* --- output ---------------------------------------------------------------------------------- */

/* A JSON string: quotes, backslashes and control characters escaped; bytes above 0x7E written
 * as \u00XX (names are bytes, not necessarily UTF-8). */
static void put_string(FILE* f, const char* s) {
  fputc('"', f);
  for (const unsigned char* p = (const unsigned char*)(s ? s : ""); *p; ++p) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20 || *p > 0x7e)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

/* One module's functions as JSON objects (each followed by ",\n"). */
static void put_functions(FILE* f, const struct module_state* ms) {
  const struct rfc_module* m = ms->mod;
  uint64_t* totals = calloc(m->slot_count ? m->slot_count : 1, sizeof(uint64_t));
  if (!totals) return;
  for (const struct block* b = ms->blocks; b; b = b->next)
    for (uint32_t s = 0; s < m->slot_count; ++s) totals[s] += b->counts[s];
  uint32_t k = 0;
  for (uint32_t fi = 0; fi < m->function_count; ++fi) {
    const struct rfc_function* fn = &m->functions[fi];
    /* entries are sorted by function: gather this one's, merging equal categories */
    struct {
      int cat;
      uint64_t value;
    } acc[64];
    int n = 0;
    uint64_t calls = 0;
    while (k < m->entry_count && m->entries[k].function < fi) ++k;
    for (; k < m->entry_count && m->entries[k].function == fi; ++k) {
      const struct rfc_entry* e = &m->entries[k];
      const uint64_t v = totals[e->slot] * e->weight;
      if (e->kind == RFC_KIND_CALLS) {
        calls += v;
        continue;
      }
      const int c = category(e);
      int j = 0;
      while (j < n && acc[j].cat != c) ++j;
      if (j == n) {
        if (n == 64) continue;
        acc[n].cat = c;
        acc[n].value = 0;
        ++n;
      }
      acc[j].value += v;
    }
    if (!(fn->flags & RFC_FN_COUNTED)) {
      fputs("{\"name\": ", f);
      put_string(f, fn->name);
      fputs(", \"file\": ", f);
      put_string(f, fn->file);
      fprintf(f, ", \"line\": %u, \"module\": %u, \"skipped\": \"%s\", \"static_flops\": %llu},\n",
              fn->line, ms->index,
              (fn->flags & RFC_FN_SKIPPED_VARARGS) ? "variadic" : "unsupported",
              (unsigned long long)fn->static_flops);
      continue;
    }
    if (calls == 0) continue;
    fputs("{\"name\": ", f);
    put_string(f, fn->name);
    fputs(", \"file\": ", f);
    put_string(f, fn->file);
    fprintf(f, ", \"line\": %u, \"module\": %u, \"calls\": %llu, \"ops\": [", fn->line, ms->index,
            (unsigned long long)calls);
    int first = 1;
    for (int j = 0; j < n; ++j) {
      if (!acc[j].value) continue;
      const int c = acc[j].cat;
      const int masked = c % 2, wc = (c / 2) % WIDTH_CODES;
      const int prec = (c / 2 / WIDTH_CODES) % RFC_PREC_COUNT;
      const int kind = c / 2 / WIDTH_CODES / RFC_PREC_COUNT;
      fprintf(f,
              "%s{\"kind\": \"%s\", \"precision\": \"%s\", \"width\": %u, \"masked\": %s, "
              "\"count\": %llu}",
              first ? "" : ", ", kind_name((unsigned)kind), precision_name((unsigned)prec),
              width_of_code(wc), masked ? "true" : "false", (unsigned long long)acc[j].value);
      first = 0;
    }
    fputs("]},\n", f);
  }
  free(totals);
}

/* A module about to be unloaded: its results are kept as text (its tables go with it). */
RFC_EXPORT void __roofline_fc_unregister(struct rfc_module* m) {
  if (!m || !m->runtime || g_mode != MODE_COUNT) return;
  struct module_state* ms = m->runtime;
  pthread_mutex_lock(&g_lock);
  if (!g_done && !ms->retired) {
    char* text = NULL;
    size_t size = 0;
    FILE* f = open_memstream(&text, &size);
    if (f) {
      put_functions(f, ms);
      fclose(f);
      ms->retired = text ? text : strdup("");
    }
  }
  pthread_mutex_unlock(&g_lock);
}

struct object {
  char path[1024];
  uintptr_t bias;
  uintptr_t lo[8], hi[8]; /* executable segments */
  int segments;
};
struct objects {
  struct object* v;
  int n, cap;
};

static int collect_object(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  struct objects* o = data;
  if (o->n == o->cap) return 1;
  struct object* ob = &o->v[o->n];
  memset(ob, 0, sizeof *ob);
  ob->bias = (uintptr_t)info->dlpi_addr;
  if (info->dlpi_name && *info->dlpi_name) {
    snprintf(ob->path, sizeof ob->path, "%s", info->dlpi_name);
  } else if (o->n == 0) {
    const ssize_t len = readlink("/proc/self/exe", ob->path, sizeof ob->path - 1);
    if (len > 0) ob->path[len] = '\0';
  }
  for (int i = 0; i < info->dlpi_phnum && ob->segments < 8; ++i) {
    const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    ob->lo[ob->segments] = ob->bias + ph->p_vaddr;
    ob->hi[ob->segments] = ob->bias + ph->p_vaddr + ph->p_memsz;
    ++ob->segments;
  }
  ++o->n;
  return 0;
}

static int object_of(const struct objects* o, uintptr_t pc) {
  for (int i = 0; i < o->n; ++i)
    for (int s = 0; s < o->v[i].segments; ++s)
      if (pc >= o->v[i].lo[s] && pc < o->v[i].hi[s]) return i;
  return -1;
}

struct resolved {
  int object;
  uintptr_t offset;
  int thread;
};
static int compare_resolved(const void* a, const void* b) {
  const struct resolved *x = a, *y = b;
  if (x->object != y->object) return x->object < y->object ? -1 : 1;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
  return 0;
}

static void put_samples(FILE* f) {
  size_t n = atomic_load(&g_sample_count);
  const size_t dropped = n > g_sample_cap ? n - g_sample_cap : 0;
  if (n > g_sample_cap) n = g_sample_cap;
  struct objects o = {calloc(256, sizeof(struct object)), 0, 256};
  if (o.v) dl_iterate_phdr(collect_object, &o);
  fprintf(f,
          "\"sampler\": \"%s\", \"interval_us\": %ld, \"cpu_seconds\": %.9g, "
          "\"samples_total\": %zu, \"samples_dropped\": %zu,\n",
          g_sampler, g_interval_us, g_cpu_end - g_cpu_start, n, dropped);
  if (g_sampling_problem) {
    fputs("\"sampling_problem\": ", f);
    put_string(f, g_sampling_problem);
    fputs(",\n", f);
  }
  fputs("\"objects\": [", f);
  for (int i = 0; i < o.n; ++i) {
    fputs(i ? ", " : "", f);
    fputs("{\"path\": ", f);
    put_string(f, o.v[i].path);
    fprintf(f, ", \"bias\": %llu}", (unsigned long long)o.v[i].bias);
  }
  fputs("],\n\"samples\": [", f);
  struct resolved* r = n ? malloc(n * sizeof *r) : NULL;
  int32_t tids[1024];
  int threads = 0;
  if (r) {
    for (size_t i = 0; i < n; ++i) {
      const int ob = object_of(&o, g_samples[i].pc);
      r[i].object = ob;
      r[i].offset = ob >= 0 ? g_samples[i].pc - o.v[ob].bias : g_samples[i].pc;
      int t = 0;
      while (t < threads && tids[t] != g_samples[i].tid) ++t;
      if (t == threads && threads < 1024) tids[threads++] = g_samples[i].tid;
      r[i].thread = t < 1024 ? t : 1023;
    }
    qsort(r, n, sizeof *r, compare_resolved);
    int first = 1;
    for (size_t i = 0; i < n;) {
      size_t j = i;
      while (j < n && compare_resolved(&r[i], &r[j]) == 0) ++j;
      fprintf(f, "%s[%d, %llu, %d, %zu]", first ? "" : ", ", r[i].object,
              (unsigned long long)r[i].offset, r[i].thread, j - i);
      first = 0;
      i = j;
    }
    free(r);
  }
  fprintf(f, "],\n\"threads\": %d,\n\"functions\": [", threads);
  int first = 1;
  for (uint32_t i = 0; i < g_module_count; ++i) {
    const struct rfc_module* m = g_modules[i]->mod;
    if (g_modules[i]->retired) continue;
    for (uint32_t k = 0; k < m->function_count; ++k) {
      const uintptr_t a = (uintptr_t)m->functions[k].address;
      const int ob = object_of(&o, a);
      fputs(first ? "" : ", ", f);
      fputs("{\"name\": ", f);
      put_string(f, m->functions[k].name);
      fprintf(f, ", \"object\": %d, \"offset\": %llu}", ob,
              (unsigned long long)(ob >= 0 ? a - o.v[ob].bias : a));
      first = 0;
    }
  }
  fputs("]", f);
  free(o.v);
}

static void write_results(void) {
  if (g_done || g_mode == MODE_OFF) return;
  if (g_mode == MODE_TIME && g_sample_cap) stop_sampling();
  pthread_mutex_lock(&g_lock);
  g_done = 1;
  char path[4096], tmp[4200];
  FILE* f = stderr;
  if (g_dir) {
    snprintf(path, sizeof path, "%s/flopcount-%ld.json", g_dir, (long)getpid());
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) {
      fprintf(stderr, "roofline flopcount: cannot write %s: %s\n", tmp, strerror(errno));
      pthread_mutex_unlock(&g_lock);
      return;
    }
  }
  fprintf(f,
          "{\"schema\": \"roofline.flopcount\", \"version\": 1, \"pid\": %ld, \"mode\": \"%s\",\n",
          (long)getpid(), g_mode == MODE_COUNT ? "count" : "time");
  fputs("\"modules\": [", f);
  for (uint32_t i = 0; i < g_module_count; ++i) {
    fputs(i ? ", " : "", f);
    put_string(f, g_modules[i]->retired ? "(unloaded)" : g_modules[i]->mod->source);
  }
  fputs("],\n", f);
  if (g_mode == MODE_COUNT) {
    /* Each function object ends in ",\n"; the last separator is dropped. */
    char* text = NULL;
    size_t size = 0;
    FILE* mem = open_memstream(&text, &size);
    if (mem) {
      for (uint32_t i = 0; i < g_module_count; ++i) {
        if (g_modules[i]->retired)
          fputs(g_modules[i]->retired, mem);
        else
          put_functions(mem, g_modules[i]);
      }
      fclose(mem);
    }
    if (text && size >= 2) text[size - 2] = '\0';
    fputs("\"functions\": [\n", f);
    if (text) fputs(text, f);
    free(text);
    fputs("],\n\"regions\": [", f);
    int first = 1;
    for (const struct region* r = g_regions; r; r = r->next) {
      fputs(first ? "\n" : ",\n", f);
      fputs("{\"name\": ", f);
      put_string(f, r->name);
      fprintf(f, ", \"calls\": %llu, \"ops\": [", (unsigned long long)r->calls);
      int firstop = 1;
      for (int c = 0; c < CATEGORIES; ++c) {
        if (!r->sums[c]) continue;
        const int masked = c % 2, wc = (c / 2) % WIDTH_CODES;
        const int prec = (c / 2 / WIDTH_CODES) % RFC_PREC_COUNT;
        const int kind = c / 2 / WIDTH_CODES / RFC_PREC_COUNT;
        fprintf(f,
                "%s{\"kind\": \"%s\", \"precision\": \"%s\", \"width\": %u, \"masked\": %s, "
                "\"count\": %llu}",
                firstop ? "" : ", ", kind_name((unsigned)kind), precision_name((unsigned)prec),
                width_of_code(wc), masked ? "true" : "false", (unsigned long long)r->sums[c]);
        firstop = 0;
      }
      fputs("]}", f);
      first = 0;
    }
    fprintf(f, "],\n\"dropped\": %lu", (unsigned long)atomic_load(&g_dropped));
  } else {
    put_samples(f);
  }
  fputs("}\n", f);
  if (f != stderr) {
    const int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
      fprintf(stderr, "roofline flopcount: cannot write %s\n", path);
      unlink(tmp);
    }
  }
  pthread_mutex_unlock(&g_lock);
}
