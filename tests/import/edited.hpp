#pragma once
// A real export with one passage changed: how the importer tests make a bad file from a good one
// (the file stays the real tool's in every other byte).
#include <gtest/gtest.h>

#include <string>

namespace roofline::test {

/// `text` with the first `from` replaced by `to`; a test failure, and `text` unchanged, when
/// `from` is not in it (the export it was written against changed).
inline std::string edited(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace roofline::test
