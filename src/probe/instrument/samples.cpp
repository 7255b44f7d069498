// Per-function time from the native run's samples: ELF function symbols give each sampled
// address its function.
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "roofline/error.hpp"
#include "roofline/instrument.hpp"

namespace roofline::instrument {
namespace fs = std::filesystem;

namespace {

template <typename T>
bool read_at(std::ifstream& in, std::uint64_t offset, T& out) {
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(reinterpret_cast<char*>(&out), sizeof out);
  return static_cast<bool>(in);
}

std::string read_bytes(std::ifstream& in, std::uint64_t offset, std::uint64_t size) {
  std::string s(size, '\0');
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(s.data(), static_cast<std::streamsize>(size));
  if (!in) return {};
  return s;
}

}  // namespace

std::vector<Symbol> read_elf_functions(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open");
  Elf64_Ehdr eh{};
  if (!read_at(in, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    throw InputError(path.string() + ": not an ELF file");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    throw InputError(path.string() + ": not a 64-bit little-endian ELF file");
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0) return {};
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (unsigned i = 0; i < eh.e_shnum; ++i)
    if (!read_at(in, eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i]))
      throw InputError(path.string() + ": section header " + std::to_string(i) + " is cut off");
  // The full symbol table where the file has one; the dynamic one (exported symbols) otherwise.
  for (const Elf64_Word type : {Elf64_Word{SHT_SYMTAB}, Elf64_Word{SHT_DYNSYM}}) {
    std::vector<Symbol> out;
    for (const auto& s : sections) {
      if (s.sh_type != type || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sections.size())
        continue;
      const Elf64_Shdr& strtab = sections[s.sh_link];
      const std::string names = read_bytes(in, strtab.sh_offset, strtab.sh_size);
      const std::uint64_t count = s.sh_size / sizeof(Elf64_Sym);
      const std::string table = read_bytes(in, s.sh_offset, count * sizeof(Elf64_Sym));
      if (table.size() != count * sizeof(Elf64_Sym) || names.empty()) continue;
      for (std::uint64_t k = 0; k < count; ++k) {
        Elf64_Sym sym;
        std::memcpy(&sym, table.data() + k * sizeof sym, sizeof sym);
        if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0 || sym.st_value == 0 ||
            sym.st_name >= names.size())
          continue;
        out.push_back({std::string(names.c_str() + sym.st_name), sym.st_value, sym.st_size});
      }
    }
    if (!out.empty()) {
      std::sort(out.begin(), out.end(), [](const Symbol& a, const Symbol& b) {
        return a.value != b.value ? a.value < b.value : a.name < b.name;
      });
      return out;
    }
  }
  return {};
}

std::vector<FunctionTime> attribute_samples(
    const SampleResult& r, const std::map<std::string, std::vector<Symbol>>& symbols) {
  // task-clock (user mode only, exclude_kernel): the kernel's timer fires every interval of
  // the thread's CPU time and drops the samples that land in the kernel (page faults, system
  // calls), so each sample stands for one interval of user time — the process CPU time, which
  // includes the kernel's, would be spread over the user samples. SIGPROF's timer is delivered
  // on the way back to user mode, so its samples share all the CPU time.
  const double per_sample = r.sampler == "task-clock" && r.interval_us > 0 ? r.interval_us * 1e-6
                            : r.total > 0 ? r.cpu_seconds / static_cast<double>(r.total)
                                          : 0;
  struct Acc {
    std::string object;
    std::uint64_t samples = 0;
    std::map<int, std::uint64_t> by_thread;
  };
  std::map<std::string, Acc> acc;
  // Instrumented functions by object, for objects without symbols: the nearest start below.
  std::map<int, std::vector<std::pair<std::uint64_t, std::string>>> starts;
  for (const auto& f : r.functions) starts[f.object].push_back({f.offset, f.name});
  for (auto& [_, v] : starts) std::sort(v.begin(), v.end());
  for (const auto& s : r.samples) {
    std::string name, object;
    if (s.object >= 0) {
      const std::string& path = r.objects[static_cast<size_t>(s.object)].path;
      object = fs::path(path).filename().string();
      const auto it = symbols.find(path);
      if (it != symbols.end() && !it->second.empty()) {
        const auto& syms = it->second;
        auto up = std::upper_bound(syms.begin(), syms.end(), s.offset,
                                   [](std::uint64_t v, const Symbol& y) { return v < y.value; });
        // Symbols can nest or alias: look back for the closest one that contains the address.
        while (up != syms.begin()) {
          --up;
          if (s.offset < up->value + up->size) {
            name = up->name;
            break;
          }
          if (s.offset - up->value > (1u << 24)) break;
        }
      } else if (starts.count(s.object)) {
        const auto& v = starts.at(s.object);
        auto up = std::upper_bound(v.begin(), v.end(), std::make_pair(s.offset, std::string()));
        if (up != v.begin()) name = std::prev(up)->second;
      }
    }
    if (name.empty()) name = object.empty() ? "(unknown)" : "(in " + object + ")";
    const std::string counted = ".roofline.counted";
    if (name.size() > counted.size() &&
        name.compare(name.size() - counted.size(), counted.size(), counted) == 0)
      name.resize(name.size() - counted.size());
    Acc& a = acc[name];
    a.object = object;
    a.samples += s.count;
    a.by_thread[s.thread] += s.count;
  }
  std::vector<FunctionTime> out;
  for (const auto& [name, a] : acc) {
    FunctionTime t;
    t.name = name;
    t.object = a.object;
    t.samples = a.samples;
    t.cpu_seconds = static_cast<double>(a.samples) * per_sample;
    std::uint64_t longest = 0;
    for (const auto& [_, n] : a.by_thread) longest = std::max(longest, n);
    t.seconds = static_cast<double>(longest) * per_sample;
    out.push_back(t);
  }
  std::sort(out.begin(), out.end(), [](const FunctionTime& a, const FunctionTime& b) {
    return a.samples != b.samples ? a.samples > b.samples : a.name < b.name;
  });
  return out;
}

}  // namespace roofline::instrument
