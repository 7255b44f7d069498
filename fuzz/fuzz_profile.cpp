// Fuzzes the readers of `roofline profile`'s recorded inputs: a callgrind profile (the cache
// simulator's output, --instrument) and a counter recording (--replay); the first byte picks the
// reader. Bad input must end in InputError: any other exception escapes and aborts, and a crash,
// a leak or a sanitizer report (an out-of-range conversion of a recorded number, say) fails the
// run (tests/ci.d/fuzz.sh).
#include <cstdint>
#include <string>

#include "roofline/counters.hpp"
#include "roofline/error.hpp"
#include "roofline/instrument.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    if (data[0] % 2 == 0)
      roofline::instrument::parse_callgrind(text, "callgrind.out.1");
    else
      roofline::counters::recording_from_json(text, "recording.json");
  } catch (const roofline::InputError&) {
  }
  return 0;
}
