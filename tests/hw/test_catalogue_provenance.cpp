// Provenance over the whole catalogue (docs/hardware.md): a `datasheet` roof was read in the
// vendor's own document, a vendor figure read only in a third party's copy is `reported`, and
// docs/hardware.md's table of reported roofs is the catalogue's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include "unity_id.hpp"

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"
#include "roofline/strings.hpp"

using namespace roofline;
namespace fs = std::filesystem;

namespace ROOFLINE_UNITY_ID {
const fs::path kRoot = fs::path(ROOFLINE_SOURCE_DIR);

std::vector<fs::path> catalogue_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kRoot / "data" / "hardware"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct Roof {
  std::string entry, name, provenance, source;
};

/// Every compute and memory roof of the catalogue as its file writes it.
std::vector<Roof> catalogue_roofs() {
  std::vector<Roof> out;
  for (const auto& f : catalogue_files()) {
    const auto j = nlohmann::json::parse(roofline::test::slurp(f.string()));
    for (const auto& c : j["compute"])
      out.push_back({f.stem().string(), c["name"], c.value("provenance", "datasheet"),
                     c.value("source", "")});
    for (const auto& m : j["memory"])
      out.push_back({f.stem().string(), m["level"], m.value("provenance", "datasheet"),
                     m.value("source", "")});
  }
  return out;
}

/// Why a source's first document (before its first ';': a later one only corroborates) was read
/// in a third party's copy, "" when it was not: the phrases the catalogue's sources use for it,
/// and a web address of no vendor's.
std::string read_in_a_copy(const std::string& source) {
  const std::string first = lower(source.substr(0, source.find(';')));
  for (const char* phrase : {"as reproduced", "as reported", "as tabulated", "as quoted", "review"})
    if (first.find(phrase) != std::string::npos) return phrase;
  for (const char* publication : {"tom's hardware", "verda", "datacrunch", "spheron", "techpowerup",
                                  "anandtech", "wikipedia", "videocardz"})
    if (first.rfind(publication, 0) == 0) return publication;
  // The vendors' hosts (NVIDIA's assets are served from nvdam.widen.net, its code from GitHub;
  // AWS's Neuron documentation from awsdocs-neuron.readthedocs-hosted.com).
  static const char* const vendors[] = {"nvidia.com",
                                        "amd.com",
                                        "intel.com",
                                        "google.com",
                                        "apple.com",
                                        "amazon.com",
                                        "arm.com",
                                        "qualcomm.com",
                                        "nvdam.widen.net",
                                        "github.com/nvidia",
                                        "awsdocs-neuron.readthedocs-hosted.com"};
  static const std::regex host(
      R"(([a-z0-9-]+\.)+(com|net|org|io|ai|de|cz|pt|pl|it|ua|fr|uk)(/[a-z0-9_-]+)?)");
  for (auto it = std::sregex_iterator(first.begin(), first.end(), host);
       it != std::sregex_iterator(); ++it) {
    const std::string h = it->str();
    const bool vendor = std::any_of(std::begin(vendors), std::end(vendors),
                                    [&](const char* v) { return h.find(v) != std::string::npos; });
    if (!vendor) return h;
  }
  return "";
}

TEST(CatalogueProvenance, NoDatasheetRoofWasReadInAThirdPartysCopy) {
  const auto roofs = catalogue_roofs();
  ASSERT_GE(roofs.size(), 400u);
  size_t datasheet = 0;
  for (const Roof& r : roofs) {
    if (r.provenance != "datasheet") continue;
    ++datasheet;
    EXPECT_EQ(read_in_a_copy(r.source), "")
        << r.entry << " '" << r.name << "' is datasheet but its source says it was read in a "
        << "third party's copy (mark it reported): " << r.source;
  }
  EXPECT_GE(datasheet, 200u);
  // The rule sees what it is for: gaudi3's roofs as pcguia.pt reproduced Intel's white paper.
  EXPECT_EQ(read_in_a_copy("Intel Gaudi 3 white paper, figures as reproduced by pcguia.pt"),
            "as reproduced");
  EXPECT_EQ(read_in_a_copy("NVIDIA product page (https://www.nvidia.com/x), as tabulated by "
                           "grafikkarten.com"),
            "as tabulated");
  EXPECT_EQ(read_in_a_copy("Spheron, 'NVIDIA RTX 5090 Specs' datasheet table"), "spheron");
  EXPECT_EQ(read_in_a_copy("Vendor figures at gpu.example.io"), "gpu.example.io");
  EXPECT_EQ(read_in_a_copy("NVIDIA H200 datasheet (https://nvdam.widen.net/s/nb5zzzsjdf/h200)"),
            "");
  EXPECT_EQ(read_in_a_copy("AWS Neuron documentation (https://awsdocs-neuron.readthedocs-hosted"
                           ".com/en/v2.29.0/_sources/about-neuron/arch/neuron-hardware/x.rst)"),
            "");
  EXPECT_EQ(read_in_a_copy("Vendor figures at other.readthedocs-hosted.com"),
            "other.readthedocs-hosted.com");
}

// The roofs the tester found marked datasheet though their source named the copy they were
// read in; the figures are unchanged.
TEST(CatalogueProvenance, FiguresReadInACopyAreReported) {
  std::map<std::pair<std::string, std::string>, std::string> provenance;
  for (const Roof& r : catalogue_roofs()) provenance[{r.entry, r.name}] = r.provenance;
  for (const auto& [entry, roof] : std::vector<std::pair<std::string, std::string>>{
           {"gaudi3", "bf16 mme"},
           {"gaudi3", "HBM2e"},
           {"mi325x", "fp64 vector"},
           {"mi325x", "int8 matrix sparse"},
           {"mi325x", "HBM3E"},
           {"rtx-pro-6000-blackwell", "fp32 vector"},
           {"rtx-6000-ada", "GDDR6"},
           {"jetson-agx-thor", "fp4 tensor sparse"},
           {"core-ultra-9-288v", "ops npu"},
           {"ryzen-ai-9-hx-370", "ops platform"},
           {"apple-m3-max", "unified memory"},
           {"gb300", "fp4 tensor sparse"},
           // Read in the same review and cloud provider's table as its fp16 twin.
           {"rtx-5090", "fp4 tensor sparse"},
           {"rtx-5090", "fp16 tensor fp16-accumulate sparse"}})
    EXPECT_EQ((provenance[{entry, roof}]), "reported") << entry << " " << roof;
  // Read in NVIDIA's own README on GitHub (the data sheet's quote only corroborates it).
  EXPECT_EQ((provenance[{"jetson-agx-orin-64gb", "int8 gpu+dla sparse"}]), "datasheet");
  // The figures stayed: Gaudi 3's MME 1835 TFLOP/s, MI325X's 6 TB/s.
  const MachineDocument gaudi3 = resolve_machine("gaudi3");
  EXPECT_DOUBLE_EQ(gaudi3.roofs.find_compute("bf16 mme")->peak.value, 1835e12);
  EXPECT_DOUBLE_EQ(resolve_machine("mi325x").roofs.find_memory("HBM3E")->bandwidth.value, 6e12);
  // hw show says so beside the figure.
  const auto r = roofline::test::run_cli({"hw", "show", "gaudi3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto row = r.out.find("\nbf16 mme ");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find("1.835 PFLOP/s  dense  reported by a third party"), std::string::npos)
      << line;
}

// EPYC 9755's DRAM roof names what was read (DDR5-6000 in pre-launch press, as its
// disagreement row says), not AMD's product page, which the entry lists as not re-read.
TEST(CatalogueProvenance, Epyc9755DramSaysWhatWasRead) {
  const MachineDocument m = resolve_machine("epyc-9755");
  const MemoryRoof* dram = m.roofs.find_memory("DRAM");
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(dram->provenance, Provenance::theoretical);
  EXPECT_EQ(dram->formula, "12 channels x 6000 MT/s x 8 bytes");
  EXPECT_DOUBLE_EQ(dram->bandwidth.value, 12 * 6000e6 * 8);  // 576 GB/s
  EXPECT_EQ(dram->source.rfind("AMD EPYC 9755 product page", 0), std::string::npos) << dram->source;
  for (const char* read : {"as reported before launch", "elchapuzasinformatico.com", "telepolis.pl",
                           "product page was not read"})
    EXPECT_NE(dram->source.find(read), std::string::npos) << read << ": " << dram->source;
  const nlohmann::json info = info_json(m);
  EXPECT_NE(std::find(info["unverified"].begin(), info["unverified"].end(), "DRAM"),
            info["unverified"].end());
  EXPECT_NE(info["discrepancies"][0]["figures"][0]["source"].get<std::string>().find(
                "elchapuzasinformatico.com"),
            std::string::npos);
}

// docs/hardware.md's table of reported roofs is the catalogue's, both ways.
TEST(CatalogueProvenance, TheDocsListEveryReportedRoof) {
  std::set<std::pair<std::string, std::string>> in_catalogue, in_docs;
  for (const Roof& r : catalogue_roofs())
    if (r.provenance == "reported") in_catalogue.insert({r.entry, r.name});
  std::ifstream docs(kRoot / "docs" / "hardware.md");
  std::string line;
  bool in_section = false;
  while (std::getline(docs, line)) {
    if (line.rfind("### Figures read in a third party's copy", 0) == 0)
      in_section = true;
    else if (in_section && line.rfind("#", 0) == 0)
      in_section = false;
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    // | `entry` | `roof`, `roof` |
    const auto cells = split(line, '|');
    ASSERT_GE(cells.size(), 3u) << line;
    const std::string entry = trim(cells[1]);
    std::stringstream roofs(cells[2]);
    std::string roof;
    while (std::getline(roofs, roof, ','))
      in_docs.insert(
          {entry.substr(1, entry.size() - 2), trim(roof).substr(1, trim(roof).size() - 2)});
  }
  EXPECT_GE(in_catalogue.size(), 65u);
  for (const auto& [entry, roof] : in_catalogue)
    EXPECT_TRUE(in_docs.count({entry, roof}))
        << "docs/hardware.md omits " << entry << " '" << roof << "'";
  for (const auto& [entry, roof] : in_docs)
    EXPECT_TRUE(in_catalogue.count({entry, roof}))
        << "docs/hardware.md lists " << entry << " '" << roof << "', not reported in the catalogue";
}

// hw check refuses `datasheet` where the source's first document was read in a copy.
TEST(CatalogueProvenance, TheCheckerRefusesADatasheetReadInACopy) {
  roofline::test::TempDir dir;
  auto j = nlohmann::json::parse(
      roofline::test::slurp((kRoot / "data" / "hardware" / "h100-sxm.json").string()));
  auto problems = [&](const std::string& source) {
    j["compute"][0]["source"] = source;
    j["compute"][0]["provenance"] = "datasheet";
    roofline::test::write_text(dir.file("h100-sxm.json"), j.dump());
    return catalogue_entry_problems(dir.file("h100-sxm.json"));
  };
  const std::string roof = j["compute"][0]["name"];
  auto p = problems("NVIDIA H100 datasheet, figures as reproduced by example.com");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NE(p[0].find("compute roof '" + roof +
                      "' is marked datasheet but its source says the figure was read in a third "
                      "party's copy ('as reproduced'): mark it \"reported\""),
            std::string::npos)
      << p[0];
  EXPECT_EQ(problems("NVIDIA H100 datasheet, As Tabulated by example.com").size(), 1u);
  // A second document that corroborates, or a word that only contains the phrase, is none.
  EXPECT_TRUE(problems("NVIDIA H100 datasheet; the same figure as quoted in a review").empty());
  EXPECT_TRUE(problems("NVIDIA H100 datasheet: the figure was reported at launch").empty());
  j["compute"][0]["provenance"] = "reported";
  j["compute"][0]["source"] = "NVIDIA H100 datasheet, as reproduced by example.com";
  roofline::test::write_text(dir.file("h100-sxm.json"), j.dump());
  EXPECT_TRUE(catalogue_entry_problems(dir.file("h100-sxm.json")).empty());
}

}  // namespace ROOFLINE_UNITY_ID
