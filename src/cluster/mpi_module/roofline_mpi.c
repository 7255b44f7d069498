/* The MPI module (roofline_mpi.h): each entry is one MPI call in MPI_COMM_WORLD. Built as a
 * shared object linked to MPI and opened with dlopen only by the commands that use MPI. */
#include "roofline_mpi.h"

#include <mpi.h>
#include <stddef.h>

static int initialized(void) {
  int flag = 0;
  MPI_Initialized(&flag);
  return flag;
}
static int finalized(void) {
  int flag = 0;
  MPI_Finalized(&flag);
  return flag;
}
static int init_funneled(void) {
  int provided = 0;
  /* Funneled: the node probe runs worker threads, but only the calling thread uses MPI. */
  return MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
}
static void finalize(void) {
  MPI_Finalize();
}
static int rank(void) {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
static int size(void) {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}
static int processor_name(char* name, int capacity) {
  char buffer[MPI_MAX_PROCESSOR_NAME + 1] = {0};
  int length = 0;
  MPI_Get_processor_name(buffer, &length);
  if (length < 0) length = 0;
  if (length > capacity - 1) length = capacity - 1;
  for (int i = 0; i < length; ++i) name[i] = buffer[i];
  name[length] = '\0';
  return length;
}
static void host_ranks(int* ranks_on_host, int* local_rank) {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, ranks_on_host);
  MPI_Comm_rank(local, local_rank);
  MPI_Comm_free(&local);
}
static void barrier(void) {
  MPI_Barrier(MPI_COMM_WORLD);
}
static double wtime(void) {
  return MPI_Wtime();
}
static void allgather_int(const int* mine, int* all) {
  MPI_Allgather(mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}
static void allgatherv_char(const char* mine, int length, char* all, const int* lengths,
                            const int* displacements) {
  MPI_Allgatherv(mine, length, MPI_CHAR, all, lengths, displacements, MPI_CHAR, MPI_COMM_WORLD);
}
static void gather_int(const int* mine, int* all_on_root) {
  MPI_Gather(mine, 1, MPI_INT, all_on_root, 1, MPI_INT, 0, MPI_COMM_WORLD);
}
static void gatherv_char(const char* mine, int length, char* all_on_root, const int* lengths,
                         const int* displacements) {
  MPI_Gatherv(mine, length, MPI_CHAR, all_on_root, lengths, displacements, MPI_CHAR, 0,
              MPI_COMM_WORLD);
}
static void gather_double(const double* mine, double* all_on_root) {
  MPI_Gather(mine, 1, MPI_DOUBLE, all_on_root, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}
static void allreduce_max_int(const int* in, int* out) {
  MPI_Allreduce(in, out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}
static void allreduce_max_double(const double* in, double* out) {
  MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}
static void allreduce_sum_double(const double* in, double* out, int count) {
  MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void send_bytes(const void* buffer, int bytes, int to) {
  MPI_Send(buffer, bytes, MPI_BYTE, to, 0, MPI_COMM_WORLD);
}
static void recv_bytes(void* buffer, int bytes, int from) {
  MPI_Recv(buffer, bytes, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static const struct roofline_mpi_api api = {
    ROOFLINE_MPI_ABI,
    sizeof(struct roofline_mpi_api),
    initialized,
    finalized,
    init_funneled,
    finalize,
    rank,
    size,
    processor_name,
    host_ranks,
    barrier,
    wtime,
    allgather_int,
    allgatherv_char,
    gather_int,
    gatherv_char,
    gather_double,
    allreduce_max_int,
    allreduce_max_double,
    allreduce_sum_double,
    send_bytes,
    recv_bytes,
};

__attribute__((visibility("default"))) const struct roofline_mpi_api* roofline_mpi_api(void) {
  return &api;
}
