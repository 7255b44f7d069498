/* The contract between the flopcount compiler plugin (plugin/FlopCount.cpp), which emits one
 * module descriptor per instrumented translation unit, and the runtime (flopcount_rt.c), which
 * counts and writes the results. Version 1. Layouts are fixed-size and naturally aligned so
 * that the plugin can build them as IR constants without knowing the C compiler.
 *
 * How counting works: every basic block of a counted function that holds floating-point (or
 * integer-dot) operations owns one 64-bit counter ("slot") in a per-thread block; the block's
 * executions are counted, and the table of entries says what one execution is worth (so many
 * FLOP of such precision and vector width). Masked operations whose active lanes are only known
 * at run time add their lane counts to a slot of their own (weight 1).
 */
#ifndef ROOFLINE_FLOPCOUNT_ABI_H
#define ROOFLINE_FLOPCOUNT_ABI_H

#include <stdint.h>

#define RFC_ABI_VERSION 1

/* What a slot counts. */
enum rfc_kind {
  RFC_KIND_FLOPS = 0,     /* floating-point operations (FMA = 2) */
  RFC_KIND_INT_OPS = 1,   /* integer dot-product operations (VNNI: a multiply and an add each) */
  RFC_KIND_CALLS = 2,     /* calls of the function */
  RFC_KIND_MATH = 3,      /* math-library evaluations (exp, sin, pow ...): not in W */
  RFC_KIND_UNCOUNTED = 4, /* target intrinsics on floating-point data the plugin cannot count */
  RFC_KIND_COUNT = 5
};

enum rfc_precision {
  RFC_PREC_NONE = 0,
  RFC_PREC_FP16 = 1,
  RFC_PREC_BF16 = 2,
  RFC_PREC_FP32 = 3,
  RFC_PREC_FP64 = 4,
  RFC_PREC_FP80 = 5,
  RFC_PREC_FP128 = 6,
  RFC_PREC_INT8 = 7,
  RFC_PREC_INT16 = 8,
  RFC_PREC_COUNT = 9
};

/* One entry: executions of `slot` × `weight` = so much of (kind, precision, width). */
struct rfc_entry {
  uint32_t slot;
  uint32_t function; /* index into rfc_module.functions */
  uint16_t kind;
  uint16_t precision;
  uint16_t width_bits; /* register width the operation runs at; 0 = scalar */
  uint16_t masked;     /* 1: active lanes of masked operations, counted at run time */
  uint64_t weight;
};

/* Function flags. */
#define RFC_FN_COUNTED 1u         /* has a counted clone */
#define RFC_FN_SKIPPED_VARARGS 2u /* floating-point code not counted: variadic function */
#define RFC_FN_SKIPPED_OTHER 4u   /* not counted: blockaddress, inalloca, swifterror or naked */

struct rfc_function {
  const char* name;    /* the symbol name (mangled) */
  const void* address; /* the function as called */
  const void* counted; /* its counted clone, or null */
  const char* file;    /* source file from debug information, or "" */
  uint32_t line;       /* line of the definition, or 0 */
  uint32_t flags;
  uint64_t static_flops; /* FLOP in the function's code, each operation once (skipped ones) */
};

struct rfc_module {
  uint32_t abi_version;
  uint32_t slot_count;
  uint32_t function_count;
  uint32_t entry_count;
  const char* source; /* the translation unit's source file name */
  const struct rfc_function* functions;
  const struct rfc_entry* entries; /* sorted by function */
  void* runtime;                   /* the runtime's state for this module (starts null) */
};

#endif /* ROOFLINE_FLOPCOUNT_ABI_H */
