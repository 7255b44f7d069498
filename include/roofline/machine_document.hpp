#pragma once
// A machine document (schema "roofline.machine", docs/schema.md) as a type: the roofs, plus
// what describes the machine (`info`) and the document's other sections (`measurement`,
// `device`, `cluster`, and any a later version adds). The roofs are typed (roofline/roof.hpp),
// and so are the facts the commands read from `info` and `measurement` (roofline/
// machine_facts.hpp, read by io's machine_facts()). The free-form parts are held as JSON text
// that core carries but never reads: a document written by another version, or a catalogue
// entry, keeps every field through read and write, including the ones no reader here knows,
// and the HTML report lists them as they are. io alone parses and writes that text
// (roofline/io.hpp: info_json, section_json, set_info, set_section, info_entries), so a layer
// that only holds, passes or copies a machine document needs no JSON library.
#include <map>
#include <string>

#include "roofline/roof.hpp"

namespace roofline {

/// One JSON value as text, compact (io writes it, io reads it; core never looks inside).
/// Empty text means "none".
struct JsonText {
  std::string text;
  bool empty() const { return text.empty(); }
  friend bool operator==(const JsonText& a, const JsonText& b) { return a.text == b.text; }
  friend bool operator!=(const JsonText& a, const JsonText& b) { return !(a == b); }
};

/// A machine document: the roofs plus what describes the machine and how it was measured.
struct MachineDocument {
  RoofSet roofs;
  /// `info`: CPU, clock, cores, caches, vendor... — a JSON object, empty text when the document
  /// has none or an empty one (it is then not written).
  JsonText info;
  /// The other top-level sections (measurement details, device, cluster), each kept whole by
  /// its key, and written back as read.
  std::map<std::string, JsonText> sections;
  std::string origin;  ///< file it was read from, or catalogue name
  std::string file;    ///< the file it was read from (a catalogue entry's too); "" if none
};

}  // namespace roofline
