#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include "roofline/error.hpp"
#include "roofline/hardware.hpp"
#include "roofline/io.hpp"
#include "roofline/sanitize.hpp"
#include "roofline/strings.hpp"

namespace roofline {
namespace fs = std::filesystem;

std::vector<fs::path> catalogue_dirs(const std::string& extra_dir) {
  std::vector<fs::path> dirs;
  if (!extra_dir.empty()) {
    // A folder the user names must be one (the folders of ROOFLINE_HW_PATH, like PATH's, may
    // be absent).
    refuse_nul(extra_dir, "--hw-dir " + terminal_safe(extra_dir));
    std::error_code ec;
    if (!fs::is_directory(extra_dir, ec))
      throw InputError("--hw-dir " + terminal_safe(extra_dir) + ": " +
                       (fs::exists(extra_dir, ec) ? "not a folder" : "no such folder"));
    dirs.emplace_back(extra_dir);
  }
  if (const char* env = std::getenv("ROOFLINE_HW_PATH")) {
    std::string s(env);
    size_t start = 0;
    while (start <= s.size()) {
      const size_t end = s.find(':', start);
      const std::string part = s.substr(start, end == std::string::npos ? end : end - start);
      if (!part.empty()) dirs.emplace_back(part);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  // An installed tree moved elsewhere (PREFIX/bin/roofline beside PREFIX/share/roofline): its
  // own catalogue before the paths fixed at build time. Only the CLI's: inside Python the
  // executable is the interpreter, whose PREFIX/share/roofline is no tree of this build.
  std::error_code ec;
  if (const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
      !ec && exe.filename() == "roofline")
    dirs.emplace_back(exe.parent_path().parent_path() / "share" / "roofline" / "hardware");
  dirs.emplace_back(fs::path(ROOFLINE_DATA_DIR_SOURCE) / "hardware");
  dirs.emplace_back(fs::path(ROOFLINE_DATA_DIR_INSTALL) / "hardware");
  return dirs;
}

std::vector<std::string> hw_path_problems() {
  std::vector<std::string> problems;
  const char* env = std::getenv("ROOFLINE_HW_PATH");
  if (env == nullptr) return problems;
  const std::string s(env);
  std::set<std::string> said;
  for (size_t start = 0; start <= s.size();) {
    const size_t end = s.find(':', start);
    const std::string part = s.substr(start, end == std::string::npos ? end : end - start);
    std::error_code ec;
    if (!part.empty() && !fs::is_directory(part, ec) && said.insert(part).second)
      problems.push_back("ROOFLINE_HW_PATH: '" + terminal_safe(part) + "': " +
                         (fs::exists(part, ec) ? "not a folder" : "no such folder") + " (skipped)");
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return problems;
}

std::vector<CatalogueEntry> list_catalogue(const std::string& extra_dir) {
  return list_catalogue_in(catalogue_dirs(extra_dir));
}

std::vector<CatalogueEntry> list_catalogue_in(const std::vector<fs::path>& dirs) {
  std::vector<CatalogueEntry> entries;
  std::set<std::string> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      if (!seen.insert(hardware_key(lower(f.stem().string()))).second) continue;
      entries.push_back(catalogue_entry(f));
    }
  }
  if (entries.empty()) {
    std::string searched;
    for (const auto& d : dirs) searched += (searched.empty() ? "" : ", ") + d.string();
    throw Unavailable("no hardware catalogue found (searched: " + terminal_safe(searched) +
                      "): set ROOFLINE_HW_PATH to a folder of machine files (data/hardware), "
                      "or give --hw-dir");
  }
  return entries;
}

CatalogueEntry catalogue_entry(const fs::path& f) {
  CatalogueEntry entry;
  entry.name = lower(f.stem().string());
  entry.path = f;
  // Aliases are read from the file's info.aliases; a malformed file is reported when it is
  // used, not when the catalogue is listed.
  try {
    const auto j = parse_json(read_text_file(f), f.string());
    if (auto info = j.find("info"); info != j.end() && info->is_object())
      if (auto al = info->find("aliases"); al != info->end() && al->is_array())
        for (const auto& a : *al)
          if (a.is_string()) entry.aliases.push_back(a.get<std::string>());
  } catch (const InputError&) {
  }
  return entry;
}

std::vector<std::string> ambiguous_names(const std::vector<CatalogueEntry>& entries) {
  std::map<std::string, const CatalogueEntry*> owner;  // key -> the entry that answers to it
  std::vector<std::string> clashes;
  for (const auto& e : entries) {
    std::map<std::string, std::string> own;  // key -> as written (an entry may repeat its name)
    own.emplace(hardware_key(e.name), e.name);
    for (const auto& a : e.aliases) own.emplace(hardware_key(a), a);
    for (const auto& [k, written] : own) {
      const auto [it, fresh] = owner.emplace(k, &e);
      if (!fresh)
        clashes.push_back(terminal_safe(e.path.string()) + ": '" + terminal_safe(written) +
                          "' also names " + terminal_safe(it->second->path.string()) +
                          " (a name or alias must name one entry)");
    }
  }
  return clashes;
}

void refuse_one_machine_twice(const std::vector<std::string>& names,
                              const std::vector<const MachineDocument*>& machines,
                              const std::string& who) {
  // One file, however named (its path as typed, ./ or a link, or the catalogue name that
  // resolves to it). A document built in memory (roofs given as numbers, a measurement) has no
  // file and is no other ("given roofs" named every from_roofs machine).
  // A copy of the file (the catalogue entry copied beside the points, the same document
  // exported twice) is the same machine too: the same document, read from two paths. A machine
  // measured again differs in its roofs or measurement, so stays another machine.
  const auto same = [&](const MachineDocument& a, const MachineDocument& b) {
    if (a.file.empty() || b.file.empty()) return false;
    return same_file(a.file, b.file) || machine_to_json(a) == machine_to_json(b);
  };
  for (size_t i = 1; i < machines.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (same(*machines[i], *machines[k]))
        throw InputError(who + ": '" + terminal_safe(names[i]) + "' and '" +
                         terminal_safe(names[k]) + "' are one machine ('" +
                         terminal_safe(machines[i]->roofs.name) + "')");
}

void name_machines_apart(const std::vector<std::string>& names,
                         const std::vector<MachineDocument*>& machines) {
  std::vector<std::string> original;
  for (const MachineDocument* m : machines) original.push_back(m->roofs.name);
  for (size_t i = 0; i < machines.size(); ++i) {
    std::vector<size_t> group;
    for (size_t k = 0; k < machines.size(); ++k)
      if (original[k] == original[i]) group.push_back(k);
    if (group.size() < 2) continue;
    // The first of these that is present and different for every machine of the group (a
    // catalogue entry given by its own name keeps it: "h100-sxm (h100-sxm)" beside
    // "h100-sxm (./h100-sxm.json)").
    const auto apart = [&](const auto& label_of) {
      std::set<std::string> seen;
      for (size_t k : group)
        if (label_of(k).empty() || !seen.insert(label_of(k)).second) return false;
      return true;
    };
    const auto file_name = [&](size_t k) {
      return fs::path(machines[k]->file).filename().string();
    };
    const auto given = [&](size_t k) { return k < names.size() ? names[k] : std::string(); };
    const std::string label = apart(file_name) ? file_name(i)
                              : apart(given)   ? given(i)
                                               : "#" + std::to_string(i + 1);
    machines[i]->roofs.name = original[i] + " (" + label + ")";
  }
}

void tell_machines_apart(const std::vector<std::string>& names,
                         std::vector<MachineDocument>& machines, const std::string& who) {
  std::vector<const MachineDocument*> resolved;
  for (const auto& m : machines) resolved.push_back(&m);
  refuse_one_machine_twice(names, resolved, who);
  std::vector<MachineDocument*> named;
  for (auto& m : machines) named.push_back(&m);
  name_machines_apart(names, named);
}

std::vector<MachineDocument> resolve_machines(const std::vector<std::string>& names,
                                              const std::string& extra_dir,
                                              const std::string& who) {
  std::vector<MachineDocument> machines;
  for (const auto& n : names) machines.push_back(resolve_machine(n, extra_dir));
  tell_machines_apart(names, machines, who);
  return machines;
}

MachineDocument resolve_machine(const std::string& spec, const std::string& extra_dir) {
  if (spec.empty()) throw InputError("no machine given (a catalogue name or a machine file)");
  std::error_code ec;
  const bool looks_like_path = spec.find('/') != std::string::npos ||
                               (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json");
  if (looks_like_path) return load_machine_file(spec);
  const std::string key = hardware_key(spec);
  if (fs::is_regular_file(spec, ec)) {
    // A bare name that is a file here and also names a catalogue entry: which was meant cannot
    // be told, and a file here silently stood in for the catalogue's machine.
    std::vector<CatalogueEntry> all;
    try {
      all = list_catalogue(extra_dir);
    } catch (const Unavailable&) {
    }
    for (const auto& e : all) {
      bool named = hardware_key(e.name) == key;
      for (const auto& a : e.aliases) named |= hardware_key(a) == key;
      if (named)
        throw InputError("'" + terminal_safe(spec) + "' is both a file here and the catalogue's " +
                         e.name + " (" + terminal_safe(e.path.string()) + "): write ./" +
                         terminal_safe(spec) + " for the file");
    }
    return load_machine_file(spec);
  }
  const auto entries = list_catalogue(extra_dir);
  // A file's name first; an alias only when no file is so named, and only one entry's.
  const CatalogueEntry* found = nullptr;
  for (const auto& e : entries)
    if (hardware_key(e.name) == key) found = &e;
  if (!found)
    for (const auto& e : entries)
      for (const auto& a : e.aliases)
        if (hardware_key(a) == key && found != &e) {
          if (found)
            throw InputError("'" + terminal_safe(spec) + "' is an alias of both " + found->name +
                             " (" + terminal_safe(found->path.string()) + ") and " + e.name + " (" +
                             terminal_safe(e.path.string()) + "): give the name");
          found = &e;
        }
  if (found) {
    MachineDocument m = load_machine_file(found->path);
    m.origin = found->name;
    return m;
  }
  // Suggestions: the closest names by edit distance (names containing the key count as 1); on
  // equal distance a name or alias that starts with the typed text comes first ("xeon-8480":
  // xeon-platinum-8480plus, alias xeon-8480+, before xeon-platinum-8380, alias xeon-8380).
  struct Scored {
    size_t distance;
    bool prefix;
    std::string name;
  };
  std::vector<Scored> scored;
  for (const auto& e : entries) {
    std::vector<std::string> keys = {hardware_key(e.name)};
    for (const auto& a : e.aliases) keys.push_back(hardware_key(a));
    size_t best = edit_distance(key, keys.front());
    bool prefix = false;
    for (const auto& k : keys) {
      best = std::min(best, edit_distance(key, k));
      prefix = prefix || k.rfind(key, 0) == 0;
    }
    if (keys.front().find(key) != std::string::npos) best = std::min<size_t>(best, 1);
    scored.push_back({best, prefix, e.name});
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.distance != b.distance) return a.distance < b.distance;
    if (a.prefix != b.prefix) return a.prefix;
    return a.name < b.name;
  });
  std::string hint;
  for (size_t i = 0; i < scored.size() && i < 3; ++i)
    if (scored[i].distance <= std::max<size_t>(3, key.size() / 2))
      hint += (hint.empty() ? "" : ", ") + scored[i].name;
  throw InputError(
      "unknown machine '" + spec + "': not a file and not in the hardware catalogue" +
      (hint.empty() ? std::string(" (see `roofline hw list`)") : " (did you mean: " + hint + "?)"));
}

}  // namespace roofline
