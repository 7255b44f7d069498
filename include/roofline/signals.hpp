#pragma once
// Holding the signals that end a command while a file is replaced or a thread is started (io's
// file layer, src/io/files.cpp). Apart from io.hpp so that code which starts threads (the kernel
// suite's OpenBLAS) takes the hold without the document readers and their JSON library.
#include <signal.h>

namespace roofline {

/// The signals that end a command (SIGINT, SIGTERM, SIGHUP, SIGQUIT) held in the calling thread
/// for a scope (pthread_sigmask), delivered when it ends. write_file_atomic holds them from its
/// temporary's creation to the rename; threads the library starts (the engine's team, the NVML
/// sampler, OpenBLAS's pool, opened under it) are started under it and so never take them: a
/// signal sent to the process reaches the thread that writes, after the rename.
class EndingSignalsHeld {
 public:
  EndingSignalsHeld();
  ~EndingSignalsHeld();
  EndingSignalsHeld(const EndingSignalsHeld&) = delete;
  EndingSignalsHeld& operator=(const EndingSignalsHeld&) = delete;
  /// Whether one of the signals is waiting for the hold to end (a long step under a hold asks
  /// it to stop early).
  static bool pending();

 private:
  sigset_t old_{};  ///< the thread's previous mask
};

/// While a file is written, a file-size limit (ulimit -f) makes write() fail with EFBIG instead
/// of killing the process with SIGXFSZ, which left the temporary file behind; the write's error
/// path removes it and reports the failure (exit 4). For a scope only (write_file_atomic, the
/// PNG export with its converter, which inherits it and so fails with a message): a program
/// `profile` starts later inherits the disposition the command had. Several scopes at once on
/// several threads share one ignore, the first saving the disposition and the last restoring it.
class FileSizeSignalIgnored {
 public:
  FileSizeSignalIgnored();
  ~FileSizeSignalIgnored();
  FileSizeSignalIgnored(const FileSizeSignalIgnored&) = delete;
  FileSizeSignalIgnored& operator=(const FileSizeSignalIgnored&) = delete;
};

}  // namespace roofline
