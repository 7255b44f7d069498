// HTML, terminal, CSV and JSON reports, and write_report's choice of format and atomicity.
#include <gtest/gtest.h>
#include "unity_id.hpp"

#include <filesystem>
#include <regex>

#include "cli/cli_runner.hpp"
#include "report/xml_lite.hpp"
#include "roofline/error.hpp"
#include "roofline/io.hpp"
#include "roofline/model.hpp"
#include "roofline/report.hpp"

namespace roofline {
namespace ROOFLINE_UNITY_ID {

const std::string kData = std::string(ROOFLINE_TEST_DATA) + "/report/";

ReportInput fixture() {
  ReportInput in;
  in.title = "test report";
  in.machines.push_back(load_machine_file(kData + "machine.json"));
  in.points = load_points_file(kData + "points.json").points;
  return in;
}

TEST(ReportHtml, SelfContainedWithNoExternalResources) {
  const std::string html = render_html(fixture());
  // Nothing that would make the browser fetch: no src/href to a URL, no url(...) but fragments,
  // no @import; the page forbids network access in its Content-Security-Policy.
  EXPECT_FALSE(std::regex_search(
      html, std::regex(R"((src|href)\s*=\s*["']?\s*(https?:)?//)", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(html, std::regex(R"(url\(\s*["']?(https?:)?//)")));
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(html.find("FLOPS"), std::string::npos);
}

TEST(ReportHtml, CarriesChartTooltipsTogglesAndTables) {
  const ReportInput in = fixture();
  const std::string html = render_html(in);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("id=\"tooltip\""), std::string::npos);
  EXPECT_NE(html.find("id=\"reset-view\""), std::string::npos);
  EXPECT_NE(html.find("data-layer=\"layer-roofs\""), std::string::npos);
  EXPECT_NE(html.find("data-layer=\"layer-curve\""), std::string::npos);  // fixture has a curve
  EXPECT_NE(html.find("prefers-color-scheme: dark"), std::string::npos);
  // The tooltip data: one entry per point with the two-step diagnosis and prescription.
  const auto a = html.find("id=\"roofline-data\">") + std::string("id=\"roofline-data\">").size();
  const auto b = html.find("</script>", a);
  const auto data = nlohmann::json::parse(html.substr(a, b - a));
  ASSERT_EQ(data["points"].size(), in.points.size());
  const Diagnosis d0 = diagnose(in.points[0], in.machines[0].roofs);
  EXPECT_EQ(data["points"][0]["title"], d0.title);
  EXPECT_EQ(data["points"][0]["prescription"], d0.prescription);
  EXPECT_EQ(data["points"][0]["performance"], "1.6 GFLOP/s");  // 2e8 FLOP / 0.125 s
  EXPECT_EQ(data["points"][0]["levels"][0]["intensity"], "0.08333 FLOP/byte");
  EXPECT_NE(data["points"][0]["step1"].get<std::string>().find("touching a roof?"),
            std::string::npos);
  // Tables: roofs with theoretical ratio, points sortable, machine description.
  EXPECT_NE(html.find("id=\"points-table\" class=\"data sortable\""), std::string::npos);
  EXPECT_NE(html.find("id=\"roofs-table\""), std::string::npos);
  EXPECT_NE(html.find("91.8%"), std::string::npos);  // 72 / 78.4 GFLOP/s measured / theoretical
  EXPECT_NE(html.find("AMD EPYC (Zen 3), test fixture"), std::string::npos);
  EXPECT_NE(html.find("roofline measure (fixture)"), std::string::npos);  // how it was measured
}

TEST(ReportHtml, WeightedPointsGetAWeightColumn) {
  ReportInput in = fixture();
  EXPECT_EQ(render_html(in).find("<th>weight</th>"), std::string::npos);
  in.points[0].weight = 0.625;
  const std::string html = render_html(in);
  EXPECT_NE(html.find("<th>weight</th>"), std::string::npos);
  // The weighted point's cell with its weight.
  EXPECT_TRUE(
      std::regex_search(html, std::regex(R"(data-label="weight" data-sort="[^"]+">0\.625<)")));
}

TEST(ReportHtml, ShowsTheMeasurementsWarnings) {
  ReportInput in = fixture();
  set_section(in.machines[0], "measurement",
              {{"warnings", {"18 of 18 roofs are noisy", "not confirmed: L3 <uncertain>"}}});
  const std::string html = render_html(in);
  EXPECT_NE(
      html.find("<h3>Warnings</h3>\n<ul class=\"warnings\">\n<li>18 of 18 roofs are noisy</li>"
                "\n<li>not confirmed: L3 &lt;uncertain&gt;</li>"),
      std::string::npos);
  set_section(in.machines[0], "measurement", {{"warnings", nlohmann::json::array()}});
  EXPECT_EQ(render_html(in).find("<h3>Warnings</h3>"), std::string::npos);
}

TEST(ReportHtml, EscapesNamesThatLookLikeMarkup) {
  ReportInput in = fixture();
  in.points[0].name = "</script><b>x & y</b>";
  const std::string html = render_html(in);
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;/script&gt;&lt;b&gt;x &amp; y"), std::string::npos);
}

TEST(ReportTerminal, PlainWithoutColourAndColouredWithIt) {
  const ReportInput in = fixture();
  const std::string plain = render_terminal(in, 100, false);
  EXPECT_EQ(plain.find('\033'), std::string::npos);
  EXPECT_NE(plain.find("Operational intensity [FLOP/byte]"), std::string::npos);
  EXPECT_NE(plain.find("Performance [FLOP/s]"), std::string::npos);
  // Braille dots are drawn (any character in U+2801..U+28FF).
  EXPECT_TRUE(std::regex_search(plain, std::regex("\xE2[\xA0-\xA3][\x80-\xBF]")));
  EXPECT_NE(plain.find("ridge I* = 3.429 FLOP/byte"), std::string::npos);
  EXPECT_NE(plain.find("daxpy"), std::string::npos);
  EXPECT_NE(plain.find("above-roof"), std::string::npos);
  // No line wider than asked.
  size_t start = 0, widest = 0;
  while (start < plain.size()) {
    size_t end = plain.find('\n', start);
    if (end == std::string::npos) end = plain.size();
    size_t cols = 0;
    for (size_t k = start; k < end; ++k)
      if ((static_cast<unsigned char>(plain[k]) & 0xC0) != 0x80) ++cols;
    // Tables may be wider than the plot; check the plot rows (they start with the axis bar).
    if (plain.substr(start, end - start).find("│") != std::string::npos)
      widest = std::max(widest, cols);
    start = end + 1;
  }
  EXPECT_LE(widest, 100u);
  const std::string colour = render_terminal(in, 100, true);
  EXPECT_NE(colour.find('\033'), std::string::npos);
}

TEST(ReportData, CsvHasRoofsAndPointRows) {
  const std::string csv = render_csv(fixture());
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  // header + 3 compute + 3 memory + points: 4 single-level + 2 levels of dgemm.
  EXPECT_EQ(lines, 1u + 3 + 3 + 4 + 2);
  // 72 / 78.4 GFLOP/s measured over theoretical.
  EXPECT_NE(csv.find("compute_roof,zen3-2core-vm,fp64 avx2 fma,,fp64,measured,7.2e+10,FLOP/s,"
                     "7.84e+10,0.918367347,"),
            std::string::npos);
  // daxpy: P = 2e8 / 0.125 s, I = 2e8 / 2.4e9, attainable = 21e9 · I = 1.75e9, 91.4%; then the
  // roof it was judged against, W, Q at the level, T and its source.
  EXPECT_NE(csv.find("point,zen3-2core-vm,daxpy,DRAM,fp64,,1.6e+09,FLOP/s,,,"
                     "0.0833333333,1.6e+09,1.75e+09,0.914285714,memory-bound,memory,"
                     "fp64 avx2 fma,200000000,2.4e+09,0.125,formula"),
            std::string::npos)
      << csv;
  // The header names every column (drawn, reason and detail last, so the others keep their
  // places), the point rows fill all of them but a roof's spread and the reasons not drawn.
  EXPECT_EQ(csv.rfind("record,machine,name,level,precision,provenance,value,unit,theoretical,"
                      "measured_over_theoretical,intensity,performance,attainable,attainment,"
                      "verdict,binding_roof,compute_roof,work,traffic,time,source,spread,noisy,"
                      "drawn,reason,detail\n",
                      0),
            0u);
  EXPECT_NE(csv.find("0.125,formula,,,true,,\n"), std::string::npos) << csv;
  // A measured roof's spread (the noise policy's) and its flag: 16.7% (the real run's cv) and
  // noisy; its bf16 dot roof is not. The SVG and CSV said nothing of it.
  ReportInput real;
  real.machines.push_back(load_machine_file(kData + "real/zen4-genoa-2vcpu.machine.json"));
  const std::string real_csv = render_csv(real);
  EXPECT_NE(real_csv.find(",fp64 512-bit fma,"), std::string::npos);
  EXPECT_TRUE(std::regex_search(
      real_csv, std::regex(R"(compute_roof,[^,]+,fp64 scalar add\+mul,.*,0\.16[0-9]*,true,,,\n)")))
      << real_csv;
  EXPECT_TRUE(std::regex_search(real_csv,
                                std::regex(R"(compute_roof,[^,]+,bf16 512-bit dot,.*,false,,,\n)")))
      << real_csv;
}

TEST(ReportData, JsonCarriesRidgesAndAnalyses) {
  ReportInput in = fixture();
  in.workload_line = Intensity(2.0);
  const auto j = render_json(in);
  EXPECT_EQ(j["schema"], "roofline.report");
  EXPECT_EQ(j["version"], 2);
  EXPECT_EQ(j["units"]["intensity"], "FLOP/byte");
  EXPECT_EQ(j["points"].size(), 5u);
  EXPECT_NEAR(j["ridges"][0]["intensity"].get<double>(), 72e9 / 21e9, 1e-9);
  EXPECT_TRUE(j["ridges"][0]["primary"].get<bool>());
  EXPECT_NEAR(j["workload"]["machines"][0]["attainable"].get<double>(), 42e9, 1);
}

TEST(ReportWrite, ByExtensionAtomicallyAndUnknownIsAnInputError) {
  test::TempDir dir;
  const ReportInput in = fixture();
  write_report(dir.file("c.svg"), in);
  EXPECT_NO_THROW(test::parse_xml(test::slurp(dir.file("c.svg"))));
  write_report(dir.file("c.HTML"), in);
  EXPECT_EQ(test::slurp(dir.file("c.HTML")).rfind("<!DOCTYPE html>", 0), 0u);
  write_report(dir.file("c.json"), in);
  EXPECT_EQ(nlohmann::json::parse(test::slurp(dir.file("c.json")))["schema"], "roofline.report");
  write_report(dir.file("c.csv"), in);
  EXPECT_EQ(test::slurp(dir.file("c.csv")).rfind("record,", 0), 0u);
  EXPECT_THROW(write_report(dir.file("c.pdf"), in), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("c.pdf")));
  // A bad input leaves an existing file untouched.
  ReportInput bad = in;
  bad.points = load_points_file(kData + "points_fp16.json").points;
  const std::string before = test::slurp(dir.file("c.svg"));
  EXPECT_THROW(write_report(dir.file("c.svg"), bad), InputError);
  EXPECT_EQ(test::slurp(dir.file("c.svg")), before);
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path)) ++files;
  EXPECT_EQ(files, 4u);  // no temporary left behind
}

TEST(ReportWrite, PngThroughRsvgConvert) {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "rsvg-convert (librsvg2-bin) not installed";
  test::TempDir dir;
  write_report(dir.file("c.png"), fixture());
  const std::string png = test::slurp(dir.file("c.png"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(ReportWrite, PngWithoutRsvgConvertIsUnavailable) {
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::setenv("PATH", "/nonexistent", 1);
  test::TempDir dir;
  EXPECT_THROW(write_report(dir.file("c.png"), fixture()), Unavailable);
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_FALSE(std::filesystem::exists(dir.file("c.png")));
}

// A converter that hangs is stopped after the time limit, and one that writes nothing is said:
// neither hangs the command nor reads as an internal error (stand-in converters on the PATH).
TEST(ReportWrite, PngConverterThatHangsOrWritesNothingIsUnavailable) {
  test::TempDir bin;
  const auto stand_in = [&](const std::string& body) {
    const std::string path = bin.file("rsvg-convert");
    test::write_text(path, "#!/bin/sh\n" + body + "\n");
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  };
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::setenv("PATH", (bin.path.string() + ":" + saved).c_str(), 1);
  stand_in("exec sleep 30");
  const auto start = std::chrono::steady_clock::now();
  try {
    svg_to_png("<svg/>", 2.0, std::chrono::milliseconds(300));
    ADD_FAILURE() << "no exception";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("did not finish within 0.3 s and was stopped"),
              std::string::npos)
        << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  stand_in("echo 'no fonts' >&2; exit 0");
  try {
    svg_to_png("<svg/>");
    ADD_FAILURE() << "no exception";
  } catch (const Unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("produced no PNG image (no fonts"), std::string::npos)
        << e.what();
  }
  ::setenv("PATH", saved.c_str(), 1);
}

}  // namespace ROOFLINE_UNITY_ID
}  // namespace roofline
