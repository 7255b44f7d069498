/* The boundary between roofline and MPI: the few MPI operations the cluster measurement uses
 * (src/cluster/mpi_cluster.cpp), in MPI_COMM_WORLD, behind plain C types. The MPI library is
 * linked only into the module that implements it (roofline_mpi.c, a shared object opened with
 * dlopen by `roofline cluster` and `roofline measure --mpi`), so no other command loads MPI —
 * nor the signal handlers an MPI stack installs (UCX's turn a crash into a report and a wait). */
#ifndef ROOFLINE_MPI_H
#define ROOFLINE_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the table below changes; the loader refuses a module of another version. */
#define ROOFLINE_MPI_ABI 1
/* The one symbol the module exports. */
#define ROOFLINE_MPI_ENTRY "roofline_mpi_api"

struct roofline_mpi_api {
  int abi;             /* ROOFLINE_MPI_ABI of the module */
  unsigned table_size; /* sizeof(struct roofline_mpi_api) of the module */
  int (*initialized)(void);
  int (*finalized)(void);
  /* MPI_Init_thread(MPI_THREAD_FUNNELED); returns MPI_SUCCESS (0) or the MPI error code. */
  int (*init_funneled)(void);
  void (*finalize)(void);
  int (*rank)(void);
  int (*size)(void);
  /* The processor name into `name` (capacity bytes, NUL-terminated); returns its length. */
  int (*processor_name)(char* name, int capacity);
  /* Ranks sharing this rank's host (MPI_COMM_TYPE_SHARED) and this rank's index among them. */
  void (*host_ranks)(int* ranks_on_host, int* local_rank);
  void (*barrier)(void);
  double (*wtime)(void);
  void (*allgather_int)(const int* mine, int* all);
  void (*allgatherv_char)(const char* mine, int length, char* all, const int* lengths,
                          const int* displacements);
  void (*gather_int)(const int* mine, int* all_on_root);
  void (*gatherv_char)(const char* mine, int length, char* all_on_root, const int* lengths,
                       const int* displacements);
  void (*gather_double)(const double* mine, double* all_on_root);
  void (*allreduce_max_int)(const int* in, int* out);
  void (*allreduce_max_double)(const double* in, double* out);
  void (*allreduce_sum_double)(const double* in, double* out, int count);
  void (*send_bytes)(const void* buffer, int bytes, int to);
  void (*recv_bytes)(void* buffer, int bytes, int from);
};

typedef const struct roofline_mpi_api* (*roofline_mpi_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
