/* Roofline marker API (C). Marks regions of a program so that `roofline profile` places one
 * point per region: T is measured per region; W and Q come from the counts the program declares
 * (roofline_region_add_flops / _bytes), for machines without hardware counters.
 *
 *   roofline_region_begin("solver");
 *   ... work ...
 *   roofline_region_add_flops(2.0 * n);   // W of this pass, in FLOP
 *   roofline_region_add_bytes(12.0 * n);  // Q of this pass, in bytes
 *   roofline_region_end("solver");
 *
 * Enabled when the environment variable ROOFLINE_MARKERS is 1/on, or when the program runs
 * under `roofline profile` (which sets ROOFLINE_MARKER_DIR); ROOFLINE_MARKERS=0 turns it off.
 * When disabled every call costs one predictable branch. Thread-safe: regions nest per thread;
 * results are merged over threads and written at normal program exit (exit() or return from
 * main) to ROOFLINE_MARKER_DIR/markers-<pid>.json, or summarised on stderr when no directory
 * is set. Names must stay valid until the region ends (string literals are ideal).
 */
#ifndef ROOFLINE_MARKER_H
#define ROOFLINE_MARKER_H

#ifdef __cplusplus
extern "C" {
#endif

/** Opens region `name` on the calling thread. Returns a handle for roofline_region_add_*_to,
 *  or -1 when markers are disabled. */
int roofline_region_begin(const char* name);
/** Closes the innermost open region called `name` on the calling thread. */
void roofline_region_end(const char* name);
/** Adds declared work (FLOP) / traffic (bytes) to the innermost open region of this thread. */
void roofline_region_add_flops(double flops);
void roofline_region_add_bytes(double bytes);
/** The same, for the region a roofline_region_begin handle names. */
void roofline_region_add_flops_to(int handle, double flops);
void roofline_region_add_bytes_to(int handle, double bytes);
/** 1 when markers record, 0 when disabled. */
int roofline_markers_enabled(void);

#ifdef __cplusplus
}
#endif

#endif /* ROOFLINE_MARKER_H */
