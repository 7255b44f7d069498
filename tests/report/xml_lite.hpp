#pragma once
// A small XML reader for tests: elements, attributes, text; throws std::runtime_error on input
// that is not well-formed (unbalanced or mismatched tags, bad attributes, stray '<' or '&').
#include <cctype>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace roofline::test {

struct XmlNode {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<std::unique_ptr<XmlNode>> children;
  std::string text;  ///< concatenated character data of this element (not of children)

  std::string attr(const std::string& k) const {
    auto it = attrs.find(k);
    return it == attrs.end() ? std::string() : it->second;
  }
  bool has(const std::string& k) const { return attrs.count(k) != 0; }
  /// Every descendant (and this) for which `pred` holds, in document order.
  void collect(const std::function<bool(const XmlNode&)>& pred,
               std::vector<const XmlNode*>& out) const {
    if (pred(*this)) out.push_back(this);
    for (const auto& c : children) c->collect(pred, out);
  }
  std::vector<const XmlNode*> find_all(const std::function<bool(const XmlNode&)>& pred) const {
    std::vector<const XmlNode*> out;
    collect(pred, out);
    return out;
  }
  bool has_class(const std::string& c) const {
    const std::string cls = " " + attr("class") + " ";
    return cls.find(" " + c + " ") != std::string::npos;
  }
};

class XmlReader {
 public:
  explicit XmlReader(const std::string& s) : s_(s) {}
  std::unique_ptr<XmlNode> parse() {
    skip_prolog();
    auto root = element();
    skip_misc();
    if (i_ != s_.size()) fail("content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("XML not well-formed at byte " + std::to_string(i_) + ": " + why);
  }
  bool starts(const char* p) const {
    return s_.compare(i_, std::char_traits<char>::length(p), p) == 0;
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  void skip_until(const char* end) {
    const size_t p = s_.find(end, i_);
    if (p == std::string::npos) fail(std::string("missing ") + end);
    i_ = p + std::char_traits<char>::length(end);
  }
  void skip_misc() {
    for (;;) {
      ws();
      if (starts("<!--"))
        skip_until("-->");
      else if (starts("<?"))
        skip_until("?>");
      else
        return;
    }
  }
  void skip_prolog() {
    skip_misc();
    if (starts("<!DOCTYPE")) skip_until(">");
    skip_misc();
  }
  std::string name() {
    const size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                              s_[i_] == '_' || s_[i_] == ':' || s_[i_] == '.'))
      ++i_;
    if (b == i_) fail("expected a name");
    return s_.substr(b, i_ - b);
  }
  std::string decode(const std::string& raw) {
    std::string out;
    for (size_t k = 0; k < raw.size(); ++k) {
      if (raw[k] == '<') fail("'<' in character data");
      if (raw[k] != '&') {
        out += raw[k];
        continue;
      }
      const size_t semi = raw.find(';', k);
      if (semi == std::string::npos) fail("unterminated entity");
      const std::string ent = raw.substr(k + 1, semi - k - 1);
      if (ent == "amp")
        out += '&';
      else if (ent == "lt")
        out += '<';
      else if (ent == "gt")
        out += '>';
      else if (ent == "quot")
        out += '"';
      else if (ent == "apos" || ent == "#39")
        out += '\'';
      else if (!ent.empty() && ent[0] == '#')
        out += '?';
      else
        fail("unknown entity &" + ent + ";");
      k = semi;
    }
    return out;
  }
  std::unique_ptr<XmlNode> element() {
    if (!starts("<")) fail("expected '<'");
    ++i_;
    auto n = std::make_unique<XmlNode>();
    n->name = name();
    for (;;) {
      ws();
      if (starts("/>")) {
        i_ += 2;
        return n;
      }
      if (starts(">")) {
        ++i_;
        break;
      }
      const std::string k = name();
      ws();
      if (!starts("=")) fail("expected '=' after attribute " + k);
      ++i_;
      ws();
      const char q = i_ < s_.size() ? s_[i_] : 0;
      if (q != '"' && q != '\'') fail("unquoted attribute " + k);
      const size_t end = s_.find(q, i_ + 1);
      if (end == std::string::npos) fail("unterminated attribute " + k);
      if (n->attrs.count(k)) fail("duplicate attribute " + k);
      n->attrs[k] = decode(s_.substr(i_ + 1, end - i_ - 1));
      i_ = end + 1;
    }
    for (;;) {
      if (i_ >= s_.size()) fail("unclosed <" + n->name + ">");
      if (starts("</")) {
        i_ += 2;
        const std::string close = name();
        if (close != n->name) fail("</" + close + "> closes <" + n->name + ">");
        ws();
        if (!starts(">")) fail("expected '>'");
        ++i_;
        return n;
      }
      if (starts("<!--")) {
        skip_until("-->");
        continue;
      }
      if (starts("<![CDATA[")) {
        const size_t b = i_ + 9;
        skip_until("]]>");
        n->text += s_.substr(b, i_ - 3 - b);
        continue;
      }
      if (starts("<")) {
        n->children.push_back(element());
        continue;
      }
      const size_t next = s_.find('<', i_);
      const size_t end = next == std::string::npos ? s_.size() : next;
      n->text += decode(s_.substr(i_, end - i_));
      i_ = end;
    }
  }
  const std::string& s_;
  size_t i_ = 0;
};

inline std::unique_ptr<XmlNode> parse_xml(const std::string& s) {
  return XmlReader(s).parse();
}

}  // namespace roofline::test
