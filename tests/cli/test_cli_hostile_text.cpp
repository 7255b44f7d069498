// Names from files and arguments that carry terminal escapes (OSC retitles the window, CSI 2J
// clears the screen, U+202E reorders text), CSV formulas, and characters XML forbids: the real
// executable must show them escaped on stdout and stderr — with or without NO_COLOR, on a
// terminal or not — disarm them in CSV, and keep SVG well-formed (so PNG export works).
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_hostile.hpp"
#include "cli/cli_runner.hpp"
#include "report/xml_lite.hpp"

namespace roofline::test {
namespace ROOFLINE_UNITY_ID {

namespace fs = std::filesystem;
using nlohmann::json;
const std::string kData = ROOFLINE_TEST_DATA;
const std::string kA100 = kData + "/core/machine-a100.json";

// OSC 0 (window title) ended by BEL, CSI 2J (clear screen), RLO U+202E, NEL U+0085 (a C1
// control), U+FFFE and U+FFFF (noncharacters XML forbids), a tab (it would shift a table's
// columns).
const std::string kEvil =
    "ev\x1b]0;pwned\x07\x1b[2J\xe2\x80\xae"
    "il\xc2\x85\xef\xbf\xbe\xef\xbf\xbf\tx";

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

void expect_clean(const CliResult& r, const std::string& what) {
  EXPECT_FALSE(has_raw_controls(r.out)) << what << ": stdout: " << r.out;
  EXPECT_FALSE(has_raw_controls(r.err)) << what << ": stderr: " << r.err;
  EXPECT_TRUE(has(r.out + r.err, "\\u001b]0;pwned\\u0007\\u001b[2J\\u202e"))
      << what << r.out << r.err;
}

std::string points_named(const std::string& name) {
  return json{{"schema", "roofline.points"},
              {"version", 1},
              {"points", {{{"name", name}, {"work", 1e9}, {"traffic", 1e9}, {"time", 0.01}}}}}
      .dump();
}

json machine_named(const std::string& name, const std::string& roof) {
  json m = json::parse(slurp(kA100));
  m["name"] = name;
  m["compute"][0]["name"] = roof;
  m["info"]["vendor"] = name;
  m["info"]["display_name"] = name;
  return m;
}

TEST(CliHostileText, PointNamesAreShownEscapedEverywhere) {
  TempDir d;
  write_text(d.file("evil.json"), points_named(kEvil));
  const std::vector<std::vector<std::string>> commands = {
      {"point", "--points", d.file("evil.json"), "--machine", kA100},
      {"point", "--points", d.file("evil.json"), "--machine", kA100, "--json"},
      {"plot", kA100, d.file("evil.json"), "--terminal", "--width", "100"},
      {"point", "--name", kEvil, "-W", "1e9", "-Q", "1e9", "-T", "0.01", "--peak", "1T",
       "--bandwidth", "1T"}};
  for (const auto& args : commands)
    for (const std::string env : {"", "NO_COLOR=1", "NO_COLOR="}) {
      const auto r = run_cli(args, env);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      expect_clean(r, args[0] + " " + args[1] + " " + env);
    }
  // The JSON on stdout is the same data: escapes are JSON escapes.
  const auto r = run_cli({"point", "--points", d.file("evil.json"), "--machine", kA100, "--json"});
  EXPECT_EQ(json::parse(r.out).at(0)["name"], kEvil) << r.out;
}

TEST(CliHostileText, EscapedAlsoOnATerminalWithColourOn) {
  TempDir d;
  write_text(d.file("evil.json"), points_named(kEvil));
  const std::string tty =
      run_cli_on_pty({"point", "--points", d.file("evil.json"), "--machine", kA100});
  EXPECT_TRUE(has(tty, "\x1b[1m")) << "colour expected on a terminal: " << tty;
  EXPECT_FALSE(has_raw_controls(tty, true)) << tty;
  EXPECT_TRUE(has(tty, "\\u001b]0;pwned")) << tty;
}

TEST(CliHostileText, EmptyNoColorKeepsColourAndSetOneTurnsItOff) {
  // no-color.org: "when present and not an empty string".
  const std::vector<std::string> args = {"point", "-W",     "1e9", "-Q",          "1e9", "-T",
                                         "0.01",  "--peak", "1T",  "--bandwidth", "1T"};
  EXPECT_TRUE(has(run_cli_on_pty(args, {"NO_COLOR="}), "\x1b[1m"));
  EXPECT_TRUE(has(run_cli_on_pty(args, {}), "\x1b[1m"));
  EXPECT_FALSE(has(run_cli_on_pty(args, {"NO_COLOR=1"}), "\x1b["));
}

TEST(CliHostileText, MachineCatalogueAndFileNamesAreShownEscaped) {
  TempDir d;
  write_text(d.file("evil-machine.json"), machine_named(kEvil, "fp32\x1b[2J").dump());
  fs::create_directory(d.path / "hw");
  write_text((d.path / "hw" / "evil.json").string(), machine_named(kEvil, "fp32 " + kEvil).dump());
  const std::vector<std::vector<std::string>> commands = {
      {"hw", "show", d.file("evil-machine.json")},
      {"point", "-W", "1e9", "-Q", "1e9", "-T", "0.01", "--machine", d.file("evil-machine.json")},
      {"hw", "list", "--hw-dir", (d.path / "hw").string()},
      {"hw", "show", "evil", "--hw-dir", (d.path / "hw").string()},
      {"hw", "ridges", "--add", d.file("evil-machine.json")},
      // A file name in an error message.
      {"point", "-W", "1", "-Q", "1", "-T", "1", "--machine", d.file(kEvil + ".json")}};
  for (size_t i = 0; i < commands.size(); ++i) {
    const auto r = run_cli(commands[i]);
    EXPECT_EQ(r.exit_code, i + 1 < commands.size() ? 0 : 2) << r.err;
    EXPECT_FALSE(has(r.err, "warning")) << r.err;
    expect_clean(r, commands[i][0] + " " + commands[i][1]);
  }
  const auto r = run_cli(commands.back());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "\\u202eil\\u0085\\ufffe\\uffff\\u0009x.json: no such file")) << r.err;
}

// A file name that is not UTF-8 reaches the JSON of every command that writes it (a title, a
// document's "a"/"b", the model's source): the byte becomes U+FFFD. Every --json output refused
// such a name with "bad document: invalid UTF-8 byte" (exit 2, nothing written).
TEST(CliHostileText, FileNamesThatAreNotUtf8StillGiveJson) {
  TempDir d;
  const std::string points = d.file("pts\xff.json");
  write_text(points, R"({"schema": "roofline.points", "version": 1, "points": [
    {"name": "k", "work": 1e9, "traffic": 1e9, "time": 1}]})");
  const std::string config = d.file("falcon\xff.json");
  fs::copy_file(std::string(ROOFLINE_TEST_DATA) + "/llm/falcon-7b.config.json", config);
  const std::vector<std::vector<std::string>> commands = {
      {"diff", points, points, "--json"},
      {"check", points, "--peak", "100G", "--bandwidth", "10G", "--min-attainment", "0.01",
       "--json"},
      {"llm", "--model", config, "--hw", "h100-sxm", "--json"}};
  for (const auto& c : commands) {
    const auto r = run_cli(c);
    EXPECT_EQ(r.exit_code, 0) << c[0] << ": " << r.err;
    EXPECT_TRUE(json::accept(r.out)) << c[0];  // valid UTF-8, or it is no JSON
    EXPECT_NE(r.out.find("\xef\xbf\xbd.json"), std::string::npos) << c[0] << ": " << r.out;
  }
}

TEST(CliHostileText, KernelRegionAndModelNamesFromImportsAreShownEscaped) {
  TempDir d;
  // An Nsight Compute export whose kernel is named with escapes.
  std::string ncu = slurp(kData + "/import/ncu-raw-saxpy.csv");
  const std::string kernel = "saxpy(int, float, float const*, float*)";
  for (size_t at; (at = ncu.find(kernel)) != std::string::npos;)
    ncu.replace(at, kernel.size(), kEvil);
  write_text(d.file("ncu.csv"), ncu);
  auto r = run_cli({"import", "ncu", d.file("ncu.csv")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_clean(r, "import ncu");
  // A likwid region.
  std::string likwid = slurp(kData + "/import/likwid-mem-dp-regions.csv");
  for (size_t at; (at = likwid.find("Region triad")) != std::string::npos;)
    likwid.replace(at, 12, "Region tri" + kEvil);
  write_text(d.file("likwid.csv"), likwid);
  r = run_cli({"import", "likwid", d.file("likwid.csv")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_clean(r, "import likwid");
  // A Hugging Face config.json whose _name_or_path carries escapes.
  json config = json::parse(slurp(kData + "/llm/llama-2-7b.config.json"));
  config["_name_or_path"] = kEvil;
  write_text(d.file("config.json"), config.dump());
  r = run_cli({"llm", "--model", d.file("config.json"), "--hw", "a100-80gb"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_clean(r, "llm");
}

/// RFC 4180 records: fields split on commas outside quotes, "" inside quotes is a quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        rows.back().back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        rows.back().back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().emplace_back();
    } else if (c == '\n') {
      rows.emplace_back(1);
    } else {
      rows.back().back() += c;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
  return rows;
}

TEST(CliHostileText, CsvQuotesFieldsAndDisarmsFormulas) {
  TempDir d;
  // hw ridges --csv: a name with a comma and a quote, a vendor that is a formula.
  json m = machine_named("a,b\"c", "fp32 mine");
  m["info"]["vendor"] = "=HYPERLINK(\"http://x\")";
  m["info"]["release_year"] = 2020;
  write_text(d.file("m.json"), m.dump());
  auto r = run_cli({"hw", "ridges", "--csv", "--add", d.file("m.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = parse_csv(r.out);
  ASSERT_GT(rows.size(), 2u);
  bool found = false;
  for (const auto& row : rows) {
    EXPECT_EQ(row.size(), rows.front().size()) << "a row with another column count";
    if (!row.empty() && row[0] == "a,b\"c") {
      found = true;
      EXPECT_EQ(row[1], "'=HYPERLINK(\"http://x\")") << "a formula must not start a cell";
    }
  }
  EXPECT_TRUE(found) << r.out;

  // plot -o x.csv and point --report x.csv: point names that are formulas.
  for (const std::string formula : {"=1+1", "+1+1", "-1+1", "@SUM(A1:A2)"}) {
    write_text(d.file("p.json"), points_named(formula));
    r = run_cli({"plot", kA100, d.file("p.json"), "-o", d.file("chart.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bool named = false;
    for (const auto& row : parse_csv(slurp(d.file("chart.csv"))))
      for (const auto& cell : row) {
        EXPECT_FALSE(!cell.empty() && (cell[0] == '=' || cell[0] == '@' ||
                                       ((cell[0] == '+' || cell[0] == '-') && has(cell, "1+1"))))
            << "formula cell: " << cell;
        named = named || cell == "'" + formula;
      }
    EXPECT_TRUE(named) << slurp(d.file("chart.csv"));
  }
}

/// XML 1.0 §2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
bool only_xml_chars(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    unsigned cp = 0;
    size_t n = 1;
    if (b < 0x80) {
      cp = b;
    } else if ((b & 0xE0) == 0xC0) {
      cp = b & 0x1Fu, n = 2;
    } else if ((b & 0xF0) == 0xE0) {
      cp = b & 0x0Fu, n = 3;
    } else if ((b & 0xF8) == 0xF0) {
      cp = b & 0x07u, n = 4;
    } else {
      return false;
    }
    if (i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3Fu);
    }
    const bool ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                    (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
    if (!ok) return false;
    i += n;
  }
  return true;
}

TEST(CliHostileText, SvgStaysWellFormedAndPngExportWorks) {
  TempDir d;
  write_text(d.file("evil.json"), points_named(kEvil));
  write_text(d.file("m.json"), machine_named(kEvil, "fp32 " + kEvil).dump());
  auto r = run_cli(
      {"plot", d.file("m.json"), d.file("evil.json"), "-o", d.file("chart.svg"), "--title", kEvil});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string svg = slurp(d.file("chart.svg"));
  EXPECT_TRUE(only_xml_chars(svg));
  EXPECT_FALSE(has_raw_controls(svg));
  EXPECT_NO_THROW(parse_xml(svg));
  EXPECT_TRUE(has(svg, "\\ufffe\\uffff")) << "the name is shown, escaped";
  r = run_cli({"plot", d.file("m.json"), d.file("evil.json"), "-o", d.file("chart.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(only_xml_chars(slurp(d.file("chart.html"))));
  r = run_cli({"plot", d.file("m.json"), d.file("evil.json"), "-o", d.file("chart.png")});
  if (r.exit_code == 3) GTEST_SKIP() << "no rsvg-convert: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(d.file("chart.png")).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline::test
