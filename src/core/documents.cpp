#include "roofline/documents.hpp"

namespace roofline {

Point RunRecord::to_point() const {
  Point p;
  p.name = kernel + (variant.empty() ? "" : " [" + variant + "]") + " @" + level;
  p.work = count.work;
  p.traffic = traffic;
  p.time = Seconds(sustained);
  p.precision = precision;
  p.source = "roofline run (measured T, catalogue W and Q)";
  p.note = note;
  return p;
}

}  // namespace roofline
