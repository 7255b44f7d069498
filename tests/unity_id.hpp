#pragma once
// The test binary compiles from unity sources (tests/CMakeLists.txt): several test files share
// one translation unit, so a file's helpers (kData, load(), preset(), ...) live in
// `namespace ROOFLINE_UNITY_ID {`, a namespace CMake names per file. Built file by file, the
// name is empty and the namespace is an ordinary anonymous one.
#ifndef ROOFLINE_UNITY_ID
#define ROOFLINE_UNITY_ID
#endif
