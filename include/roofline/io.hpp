#pragma once
// Documents on disk (docs/schema.md): machine documents (a roof set, from `roofline measure`
// or the hardware catalogue — interchangeable) and points documents. Versioned JSON; readers
// reject unknown versions and bad fields with messages naming file, field and value.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/documents.hpp"
#include "roofline/machine_document.hpp"
#include "roofline/machine_facts.hpp"
#include "roofline/point.hpp"
#include "roofline/roof.hpp"
#include "roofline/signals.hpp"

namespace roofline {

inline constexpr const char* kMachineSchema = "roofline.machine";
inline constexpr int kMachineVersion = 1;
inline constexpr const char* kPointsSchema = "roofline.points";
inline constexpr int kPointsVersion = 1;

// The machine document's free-form parts (roofline/machine_document.hpp) are JSON text that
// only io reads and writes: these turn them into JSON values and back. The text is the value's
// compact dump, whose numbers read back to the same doubles and integers, so a document read and
// written keeps every field it held.

/// `j` as a JsonText (compact; text that is not UTF-8 is written with U+FFFD, as every output).
JsonText to_json_text(const nlohmann::json& j);
/// The value a JsonText holds; `fallback` for an empty one.
nlohmann::json from_json_text(const JsonText& t, const nlohmann::json& fallback = nullptr);
/// The document's `info` as a JSON object ({} when it has none).
nlohmann::json info_json(const MachineDocument& m);
/// Sets `info` (an object; an empty one is none, and is not written).
void set_info(MachineDocument& m, const nlohmann::json& info);
/// The section `key` as JSON; null when the document has none of that name.
nlohmann::json section_json(const MachineDocument& m, const std::string& key);
/// Every section, as one object by key (as they sit at the document's top level).
nlohmann::json sections_json(const MachineDocument& m);
/// Sets (adds or replaces) the section `key`.
void set_section(MachineDocument& m, const std::string& key, const nlohmann::json& value);

/// One entry of a free-form object as the HTML report lists it: the key, and its value as text —
/// a string as it is, an array as its items joined by ", ", an object as indented JSON
/// (`nested`), anything else as JSON.
struct InfoEntry {
  std::string key;
  std::string text;
  bool nested = false;
};
/// `info`'s entries, in key order.
std::vector<InfoEntry> info_entries(const MachineDocument& m);
/// The sections as entries, one a section, in key order.
std::vector<InfoEntry> section_entries(const MachineDocument& m);

/// The document's facts besides its roofs, typed (roofline/machine_facts.hpp): the one place
/// `info` and `measurement` are read by key. Never throws: a free-form field of the wrong type is
/// left out; a link latency or domain size that is there but not a positive number is recorded
/// as that link's `problem` (the message names the document, the link and the field).
MachineFacts machine_facts(const MachineDocument& m);
/// The years a device's info.release_year may hold, and that value as a year: none when it is
/// no whole number from kFirstYear to kLastYear (null, a text, 2023.5, or 4294969319, which a
/// 32-bit read had wrapped to 2023).
inline constexpr int kFirstYear = 1990, kLastYear = 2100;
std::optional<int> release_year_of(const nlohmann::json& v);

// ---- Files in and out (src/io/files.cpp; docs/architecture.md "Guarantees") -----------------
//
// Inputs are regular files only (a FIFO, a device such as /dev/zero, a folder or a socket is
// refused before a byte is read, so nothing blocks and nothing reads without end), at most
// kMaxInputBytes unless the caller gives its own limit, and JSON at most kMaxJsonDepth levels
// deep (checked before parsing, so no later recursion can overflow the stack).
//
// Outputs are written atomically (a temporary file beside the target, flushed, renamed over
// it) and only onto a regular file or a new path: never onto a device, a FIFO, a socket or a
// symbolic link (not /dev/null, not /proc/self/fd/1), never onto a file without write
// permission (a 0444 file stays as it is, also for root), and an existing file keeps its mode
// (0600 stays 0600) and, for root, its owner. While a FileLedger lives (the CLI keeps one per
// command), an output is also never one of the command's inputs, and two outputs never name
// the same file.

/// Largest input read_text_file() accepts by default: 64 MiB (a machine or points document,
/// a model config or a hardware entry is a few KiB to a few MiB).
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;
/// Largest profiler export the importers read (ncu, likwid, dcgm): 1 GiB (an Nsight Compute
/// CSV of a long run is hundreds of MB).
inline constexpr std::size_t kMaxImportBytes = std::size_t{1} << 30;
/// Largest points document read (point, plot, check, diff, energy, hw): what `import -o` may
/// write, 1 GiB (an export of 300k kernels made 103 MB of points); import refuses to write more.
inline constexpr std::size_t kMaxPointsBytes = kMaxImportBytes;
/// A limit on bytes as messages name it: whole GiB or MiB where it is one ("1 GiB", "64 MiB"),
/// else the bytes ("9 bytes"). Exact, unlike format_bytes's rounded SI figures (report's
/// run_working_set_text): a limit is a number the user may need to match.
std::string exact_binary_size_text(std::size_t bytes);
/// Deepest nesting of arrays and objects parse_json() accepts (documents nest < 10 levels).
inline constexpr int kMaxJsonDepth = 100;

/// Throws InputError "WHO: a file name with a NUL byte (\\0) names no file" for a path holding
/// a NUL (possible from Python, not from a command line): the system would cut it short there
/// and open, list or write another file than the one named. Every reader and writer below
/// checks it.
void refuse_nul(const std::filesystem::path& path, const std::string& who);

/// Reads a whole text file. Throws InputError naming the path for a missing file, a folder, a
/// FIFO, a device or a socket ("is a FIFO, expected a regular file"), an unreadable path, or
/// a file larger than `max_bytes`.
std::string read_text_file(const std::filesystem::path& path,
                           std::size_t max_bytes = kMaxInputBytes);
/// Opens a regular file for reading (checks as read_text_file, without the size limit) and
/// records it as an input of the command; the caller owns and closes the descriptor. For
/// readers that stream a large file instead of holding it whole.
int open_input_file(const std::filesystem::path& path);
/// Whether two paths name one file: the same path however written (./, a symbolic link: as
/// std::filesystem::weakly_canonical resolves it) or the same inode (a hard link). Paths that
/// do not exist are compared as written, resolved.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);
/// Refuses text in an encoding its reader does not take: UTF-32 or UTF-16 by its byte-order mark,
/// or UTF-16 by the NUL bytes between the ASCII characters it starts with (PowerShell's `>`
/// writes UTF-16LE). `head`: the text's first bytes (its first line will do); `reader`: who reads
/// only UTF-8, as the message says it ("the importers read"); `converted`: the file name the
/// suggested iconv command writes. InputError "ORIGIN: the file is UTF-16LE text (byte-order
/// mark FF FE); READER UTF-8 (or ASCII): convert it first, e.g. iconv -f UTF-16LE -t UTF-8
/// 'ORIGIN' > CONVERTED"; returns for any other text.
void refuse_unreadable_encoding(std::string_view head, const std::string& origin,
                                const std::string& reader, const std::string& converted);
/// The order in which a JSON text gives the keys of some of its objects, which nlohmann::json
/// (whose objects keep their keys sorted) loses: parse_json fills `keys`, in the text's order,
/// with the keys of each object at `depth` (the document is at depth 0) whose key is `under`.
struct JsonKeyOrder {
  std::string array;  ///< the top-level array whose elements are looked in ("points")
  std::string under;  ///< the key, in each element, of the object whose keys are recorded
  /// Per element of `array`, in its order: the keys of its `under` object as the text gives
  /// them (empty where the element has none, or is no object).
  std::vector<std::vector<std::string>> keys;
};
/// What a points document's reader keeps the order of: each point's traffic given as an object
/// ({"L3": …, "L2": …} is L3 first, as the file gives it), recorded for points[i] at keys[i] —
/// so an object named "traffic" elsewhere in the document is never taken for a point's.
inline JsonKeyOrder points_traffic_order() {
  return {"points", "traffic", {}};
}
/// Parses JSON text, throwing InputError "FILE: line L, column C: ..." on malformed input and
/// "FILE: nested deeper than 100 levels" before parsing a document nested too deep. With
/// `order`, the keys of the objects it names are recorded in the text's order.
nlohmann::json parse_json(const std::string& text, const std::string& origin,
                          JsonKeyOrder* order = nullptr);
/// Writes `content` to `path` atomically under the rules above. On any failure the old file
/// (if any) is untouched and no temporary file is left. Refusals are InputError naming the
/// path (and `what`, the flag, e.g. "--report"); a failed write (disk full, I/O error) is
/// OutputError.
void write_file_atomic(const std::filesystem::path& path, const std::string& content,
                       const std::string& what = "");
/// Checks, before any work, that `path` could be written by write_file_atomic: its folder
/// exists, it is not a folder, not a special file or link, not read-only — and, under a
/// FileLedger, not an input already read and not another output of the command. InputError
/// "WHAT PATH: ..." otherwise (`what` names the flag, e.g. "--report").
void check_writable_path(const std::filesystem::path& path, const std::string& what = "");
/// Notes, under a FileLedger, a file the command is going to read, before it reads it, so that
/// check_writable_path() refuses an output onto it before any work is done (a command with two
/// outputs had written the first before the second was refused as one of its inputs). A path
/// that is no existing regular file (a catalogue name, "-", a file not there) is left alone:
/// reading it decides.
void declare_input(const std::filesystem::path& path);
/// Whether two output paths name one file: the same file when both exist, else the same name
/// in the same folder ("out.svg", "./out.svg" and "/abs/out.svg" are one).
bool same_output(const std::filesystem::path& a, const std::filesystem::path& b);

/// The program a command line names, as execvp finds it: the name itself when it holds a '/',
/// else the first executable of that name in PATH's folders (an empty entry is the current
/// folder); "" when there is none.
std::filesystem::path find_program(const std::string& name);
/// Writes all of `text` to standard output and flushes it; OutputError ("standard output:
/// ...") when it cannot (closed, a full disk, a broken pipe).
void write_stdout(const std::string& text);
/// The folder for temporary files ($TMPDIR, else /tmp). InputError naming $TMPDIR when it is
/// set to something that is not an existing folder.
std::filesystem::path temp_directory();

/// The files of one command: while one lives (the CLI holds one around each command), every
/// input read is remembered and outputs are checked against the inputs and against each
/// other. Without one (library use) only the per-file rules apply. Not nestable.
class FileLedger {
 public:
  FileLedger();
  ~FileLedger();
  FileLedger(const FileLedger&) = delete;
  FileLedger& operator=(const FileLedger&) = delete;
};

/// A roof's statistics as the documents store them (docs/schema.md, "stats").
nlohmann::json statistics_to_json(const Statistics& s);
MachineDocument machine_from_json(const nlohmann::json& j, const std::string& origin);
nlohmann::json machine_to_json(const MachineDocument& m);
MachineDocument load_machine_file(const std::filesystem::path& path);

/// `traffic_order`: what parse_json recorded with points_traffic_order(), so that a point's levels
/// keep the file's order (the first is the one `diff` quotes I at); without it an object's
/// levels are read sorted.
PointsDocument points_from_json(const nlohmann::json& j, const std::string& origin,
                                const JsonKeyOrder* traffic_order = nullptr);
nlohmann::json points_to_json(const PointsDocument& p);
nlohmann::json point_to_json(const Point& p);
PointsDocument load_points_file(const std::filesystem::path& path);

/// `roofline run`'s document (roofline/documents.hpp) in JSON (docs/schema.md): the points
/// document of its points, each point with `run` (the run record) and `diagnosis` (or
/// `diagnosis_unavailable`, and `above_roof_cause` where it sits above its roof), and `run` with
/// threads, BLAS, caches, the bandwidth-only runs (each with its bandwidth) and the memory
/// available.
nlohmann::json run_document_to_json(const RunDocument& d);
/// A run record in JSON (the entries of `run_document_to_json`, and of `roofline run
/// --results-only`, the form a child run sends back); from_json reads that form back.
nlohmann::json run_record_to_json(const RunRecord& r);
/// The fields run_record_to_json writes, read from what it writes: `check` refuses a field of a
/// run record that is one of them misspelt.
const std::vector<std::string>& run_record_fields();
/// Every field is checked: InputError naming `origin` and the field ("results[2].median:
/// expected a number") for one missing that the record needs or of another type.
RunRecord run_record_from_json(const nlohmann::json& j, const std::string& origin = "run record");
/// `roofline run --results-only`'s document: {"blas": {"corename", "config"}, "results": [the
/// run records]}; from_json reads it back, refusing (InputError naming `origin` and the field:
/// "blas.corename: missing field") a document that is not of that form.
nlohmann::json run_results_to_json(const RunResultsDocument& d);
RunResultsDocument run_results_from_json(const nlohmann::json& j, const std::string& origin);

/// Hardware catalogue (data/hardware): directories searched in order — `extra_dir` when given,
/// each entry of $ROOFLINE_HW_PATH (colon-separated), the source tree's data/hardware, the
/// installed share/roofline/hardware.
std::vector<std::filesystem::path> catalogue_dirs(const std::string& extra_dir = "");
/// The entries of $ROOFLINE_HW_PATH that are no folder (absent, a file), each said in one line
/// ("ROOFLINE_HW_PATH: '/tmp/x/typo': no such folder (skipped)"), for a warning: like PATH's,
/// they are skipped, but a typo went unsaid where --hw-dir's is refused.
std::vector<std::string> hw_path_problems();

struct CatalogueEntry {
  std::string name;  ///< canonical, lower-case, hyphenated (file stem)
  std::vector<std::string> aliases;
  std::filesystem::path path;
};
/// All catalogue entries (first directory wins on duplicate names): list_catalogue_in of
/// catalogue_dirs(extra_dir).
std::vector<CatalogueEntry> list_catalogue(const std::string& extra_dir = "");
/// The entries of these directories, first wins. Unavailable, naming every directory searched,
/// when none holds a machine file (a binary moved away from its data: `hw list` read "0 of 0
/// devices" and every catalogue name was "unknown").
std::vector<CatalogueEntry> list_catalogue_in(const std::vector<std::filesystem::path>& dirs);
/// The entry of one catalogue file: its name (the file stem) and info.aliases.
CatalogueEntry catalogue_entry(const std::filesystem::path& file);
/// A name or alias two of `entries` answer to (names and aliases compare as hardware_key:
/// case, '-', '_' and ' ' ignored), one message per clash naming both files.
std::vector<std::string> ambiguous_names(const std::vector<CatalogueEntry>& entries);

/// Refuses a comparison of one machine with itself: a catalogue entry or file named twice (by
/// an alias: a100,a100-80gb), or a copy of its file (the same document at another path). Two
/// files of one document name that differ (a machine measured before and after a change) are
/// two machines. `names` as given, `machines` as resolved from them (a
/// document of no file, built in memory, is never the same as another).
void refuse_one_machine_twice(const std::vector<std::string>& names,
                              const std::vector<const MachineDocument*>& machines,
                              const std::string& who);

/// Machines of one document name (one machine measured before and after a change, two files
/// both named "h100-sxm") would be told apart by nothing in a comparison's text, legends and
/// exports: each such name gets what tells them apart, its file's name where those differ, else
/// the name as given, else its place in the list ("h100-sxm (before.json)").
void name_machines_apart(const std::vector<std::string>& names,
                         const std::vector<MachineDocument*>& machines);

/// A machine by catalogue name or alias (case-insensitive) or by path to a machine document.
/// Unknown names throw InputError with the closest names as suggestions.
MachineDocument resolve_machine(const std::string& name_or_path, const std::string& extra_dir = "");

/// Machines as a comparison takes them: one machine named twice refused
/// (refuse_one_machine_twice, `who` heading the message), then machines of one document name
/// told apart (name_machines_apart). `names` as given, `machines` resolved from them, in order.
void tell_machines_apart(const std::vector<std::string>& names,
                         std::vector<MachineDocument>& machines, const std::string& who);
/// Each name resolved (resolve_machine, in order: the first unknown name is the error), then
/// tell_machines_apart.
std::vector<MachineDocument> resolve_machines(const std::vector<std::string>& names,
                                              const std::string& extra_dir, const std::string& who);

}  // namespace roofline
