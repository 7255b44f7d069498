// roofline — the command line. Subcommands register themselves (commands.hpp); this file builds
// the app, runs it, and is the one place that turns errors into messages and exit codes:
//   0 success, 1 internal error, 2 bad input, 3 a needed capability is missing,
//   CLI11's own codes (≥ 100) for malformed command lines.
#include <algorithm>
#include <cstdio>
#include <exception>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "roofline/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "roofline — measure the roofs of a machine, place workloads on them as points "
      "(I = W/Q, P = W/T), and say what binds them."};
  app.set_version_flag("--version", std::string("roofline ") + ROOFLINE_CLI_VERSION);
  app.require_subcommand(1);
  auto& reg = roofline::cli::registry();
  std::stable_sort(reg.begin(), reg.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : reg) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const roofline::InputError& e) {
    std::fprintf(stderr, "roofline: error: %s\n", e.what());
    return 2;
  } catch (const roofline::Unavailable& e) {
    std::fprintf(stderr, "roofline: unavailable: %s\n", e.what());
    return 3;
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "roofline: error: bad document: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roofline: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
