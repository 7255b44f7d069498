/* Kernels with W known by hand, built by the tests with the flopcount plugin (and without it).
 * Each kernel is its own function (noinline), so that its counted W is the function's:
 *   fc_kernels axpy N [CALLS]          y = a·x + y, fp64: W = 2·N per call
 *   fc_kernels saxpy N [CALLS]         fp32: W = 2·N
 *   fc_kernels triad N [CALLS]         a = b + s·c: W = 2·N
 *   fc_kernels gemm M N K              C = A·B, i-j-k loops: W = 2·M·N·K
 *   fc_kernels gemm_tiled N B [CALLS]  C += A·B in B×B tiles: W = 2·N³
 *   fc_kernels stencil2d NX NY         5-point weighted: W = 9·(NX−2)(NY−2)
 *   fc_kernels stencil3d NX NY NZ      7-point weighted: W = 13·(NX−2)(NY−2)(NZ−2)
 *   fc_kernels threads N T             axpy split over T threads: W = 2·N
 *   fc_kernels fork N                  axpy in this process and in a child: W = 2·N in each
 *   fc_kernels time N                  light() then heavy(): heavy does 3× the work
 *   fc_kernels mix N CALLS GN GB SX SY axpy and triad of N (CALLS each), gemm_tiled GN/GB and
 *                                      stencil2d SX×SY once: per-function points in one run
 * Every result is checked; the exit status is 0 only when it is right. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

NOINLINE void axpy(double a, const double* x, double* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
NOINLINE void saxpy(float a, const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}
NOINLINE void triad(double s, const double* b, const double* c, double* a, size_t n) {
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}
NOINLINE void gemm(const double* A, const double* B, double* C, size_t m, size_t n, size_t k) {
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t p = 0; p < k; ++p) s += A[i * k + p] * B[p * n + j];
      C[i * n + j] = s;
    }
}
NOINLINE void gemm_tiled(const double* A, const double* B, double* C, size_t n, size_t b) {
  for (size_t j0 = 0; j0 < n; j0 += b)
    for (size_t k0 = 0; k0 < n; k0 += b)
      for (size_t i = 0; i < n; ++i)
        for (size_t k = k0; k < k0 + b && k < n; ++k) {
          const double a = A[i * n + k];
          for (size_t j = j0; j < j0 + b && j < n; ++j) C[i * n + j] += a * B[k * n + j];
        }
}
NOINLINE void stencil2d(const double* in, double* out, size_t nx, size_t ny, const double* w) {
  for (size_t i = 1; i + 1 < ny; ++i)
    for (size_t j = 1; j + 1 < nx; ++j) {
      const double* c = in + i * nx;
      out[i * nx + j] =
          w[0] * c[j] + w[1] * c[j - nx] + w[2] * c[j + nx] + w[3] * c[j - 1] + w[4] * c[j + 1];
    }
}
NOINLINE void stencil3d(const double* in, double* out, size_t nx, size_t ny, size_t nz,
                        const double* w) {
  const size_t plane = nx * ny;
  for (size_t z = 1; z + 1 < nz; ++z)
    for (size_t y = 1; y + 1 < ny; ++y)
      for (size_t x = 1; x + 1 < nx; ++x) {
        const double* c = in + z * plane + y * nx;
        out[z * plane + y * nx + x] = w[0] * c[x] + w[1] * c[x - 1] + w[2] * c[x + 1] +
                                      w[3] * c[x - nx] + w[4] * c[x + nx] + w[5] * c[x - plane] +
                                      w[6] * c[x + plane];
      }
}
/* Busy work for the sampling test: `rounds` dependent square roots, inlined into light() and
 * heavy() so that each one's samples land in its own code. */
static inline __attribute__((always_inline)) double spin(double v, long rounds) {
  for (long i = 0; i < rounds; ++i) v = sqrt(v + 1.0);
  return v;
}
NOINLINE double light(long n) {
  return spin(2.0, n);
}
NOINLINE double heavy(long n) {
  return spin(3.0, 3 * n);
}

static double* filled(size_t n, double v) {
  double* p = malloc((n ? n : 1) * sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(3);
  }
  for (size_t i = 0; i < n; ++i) p[i] = v;
  return p;
}

static size_t arg(int argc, char** argv, int i, size_t fallback) {
  return argc > i ? (size_t)strtoull(argv[i], NULL, 10) : fallback;
}

static int near(double got, double want) {
  return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
}

struct part {
  const double* x;
  double* y;
  size_t n;
};
static void* axpy_part(void* p) {
  struct part* q = p;
  axpy(0.5, q->x, q->y, q->n);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: fc_kernels KERNEL SIZES...\n");
    return 2;
  }
  const char* k = argv[1];
  if (strcmp(k, "axpy") == 0) {
    const size_t n = arg(argc, argv, 2, 1000), calls = arg(argc, argv, 3, 1);
    double *x = filled(n, 1.0), *y = filled(n, 2.0);
    for (size_t c = 0; c < calls; ++c) axpy(0.5, x, y, n);
    return near(y[n - 1], 2.0 + 0.5 * (double)calls) ? 0 : 1;
  }
  if (strcmp(k, "saxpy") == 0) {
    const size_t n = arg(argc, argv, 2, 1000), calls = arg(argc, argv, 3, 1);
    float* x = malloc(n * sizeof *x);
    float* y = malloc(n * sizeof *y);
    if (!x || !y) return 3;
    for (size_t i = 0; i < n; ++i) x[i] = 1.0f, y[i] = 2.0f;
    for (size_t c = 0; c < calls; ++c) saxpy(0.5f, x, y, n);
    return y[n - 1] == 2.0f + 0.5f * (float)calls ? 0 : 1;
  }
  if (strcmp(k, "triad") == 0) {
    const size_t n = arg(argc, argv, 2, 1000), calls = arg(argc, argv, 3, 1);
    double *a = filled(n, 0.0), *b = filled(n, 1.0), *c = filled(n, 2.0);
    for (size_t r = 0; r < calls; ++r) triad(3.0, b, c, a, n);
    return near(a[n - 1], 7.0) ? 0 : 1;
  }
  if (strcmp(k, "gemm") == 0) {
    const size_t m = arg(argc, argv, 2, 13), n = arg(argc, argv, 3, 17),
                 kk = arg(argc, argv, 4, 19);
    double *A = filled(m * kk, 1.0), *B = filled(kk * n, 2.0), *C = filled(m * n, 0.0);
    gemm(A, B, C, m, n, kk);
    return near(C[m * n - 1], 2.0 * (double)kk) ? 0 : 1;
  }
  if (strcmp(k, "gemm_tiled") == 0) {
    const size_t n = arg(argc, argv, 2, 64), b = arg(argc, argv, 3, 16),
                 calls = arg(argc, argv, 4, 1);
    double *A = filled(n * n, 1.0), *B = filled(n * n, 2.0), *C = filled(n * n, 0.0);
    for (size_t c = 0; c < calls; ++c) gemm_tiled(A, B, C, n, b ? b : 1);
    return near(C[n * n - 1], 2.0 * (double)n * (double)calls) ? 0 : 1;
  }
  if (strcmp(k, "stencil2d") == 0) {
    const size_t nx = arg(argc, argv, 2, 64), ny = arg(argc, argv, 3, 48);
    const double w[5] = {0.5, 0.125, 0.125, 0.125, 0.125};
    double *in = filled(nx * ny, 1.0), *out = filled(nx * ny, 0.0);
    stencil2d(in, out, nx, ny, w);
    return near(out[nx + 1], 1.0) ? 0 : 1;
  }
  if (strcmp(k, "stencil3d") == 0) {
    const size_t nx = arg(argc, argv, 2, 24), ny = arg(argc, argv, 3, 20),
                 nz = arg(argc, argv, 4, 16);
    const double w[7] = {0.25, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125};
    double *in = filled(nx * ny * nz, 1.0), *out = filled(nx * ny * nz, 0.0);
    stencil3d(in, out, nx, ny, nz, w);
    return near(out[nx * ny + nx + 1], 1.0) ? 0 : 1;
  }
  if (strcmp(k, "threads") == 0) {
    const size_t n = arg(argc, argv, 2, 100000), t = arg(argc, argv, 3, 2);
    double *x = filled(n, 1.0), *y = filled(n, 2.0);
    pthread_t th[64];
    struct part parts[64];
    const size_t nt = t < 1 ? 1 : t > 64 ? 64 : t;
    for (size_t i = 0; i < nt; ++i) {
      const size_t lo = n * i / nt, hi = n * (i + 1) / nt;
      parts[i].x = x + lo;
      parts[i].y = y + lo;
      parts[i].n = hi - lo;
      if (pthread_create(&th[i], NULL, axpy_part, &parts[i]) != 0) return 3;
    }
    for (size_t i = 0; i < nt; ++i) pthread_join(th[i], NULL);
    return near(y[0], 2.5) && near(y[n - 1], 2.5) ? 0 : 1;
  }
  if (strcmp(k, "fork") == 0) {
    const size_t n = arg(argc, argv, 2, 1000);
    double *x = filled(n, 1.0), *y = filled(n, 2.0);
    axpy(0.5, x, y, n);
    fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) return 3;
    if (pid == 0) {
      axpy(0.5, x, y, n);
      exit(near(y[0], 3.0) ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 && near(y[0], 2.5) ? 0 : 1;
  }
  if (strcmp(k, "time") == 0) {
    const long n = (long)arg(argc, argv, 2, 10000000);
    const double v = light(n) + heavy(n);
    printf("%g\n", v);
    return v > 0 ? 0 : 1;
  }
  if (strcmp(k, "mix") == 0) {
    const size_t n = arg(argc, argv, 2, 1000), calls = arg(argc, argv, 3, 1);
    const size_t gn = arg(argc, argv, 4, 64), gb = arg(argc, argv, 5, 16);
    const size_t sx = arg(argc, argv, 6, 64), sy = arg(argc, argv, 7, 64);
    double *x = filled(n, 1.0), *y = filled(n, 2.0), *t = filled(n, 0.0);
    for (size_t c = 0; c < calls; ++c) axpy(0.5, x, y, n);
    for (size_t c = 0; c < calls; ++c) triad(3.0, x, y, t, n);
    double *A = filled(gn * gn, 1.0), *B = filled(gn * gn, 2.0), *C = filled(gn * gn, 0.0);
    gemm_tiled(A, B, C, gn, gb ? gb : 1);
    const double w[5] = {0.5, 0.125, 0.125, 0.125, 0.125};
    double *in = filled(sx * sy, 1.0), *out = filled(sx * sy, 0.0);
    stencil2d(in, out, sx, sy, w);
    const double yv = 2.0 + 0.5 * (double)calls;
    return near(y[n - 1], yv) && near(t[n - 1], 1.0 + 3.0 * yv) &&
                   near(C[gn * gn - 1], 2.0 * (double)gn) && near(out[sx + 1], 1.0)
               ? 0
               : 1;
  }
  fprintf(stderr, "fc_kernels: unknown kernel '%s'\n", k);
  return 2;
}
