// An empty translation unit: tests/ci.d/cuda_compile.sh asks nvcc --dryrun for its include folder.
