// flopcount: an LLVM pass plugin (new pass manager, LLVM 14-16) that counts the floating-point
// and integer-dot operations a program executes, by precision and vector width, per function
// and per marker region. Load it with `clang -O2 -fpass-plugin=RooflineFlopCount.so` and link
// the runtime (-lroofline_flopcount); run under `roofline profile --instrument`.
//
// What it does to each translation unit, at the end of the optimisation pipeline (so the
// vectoriser and inliner have already decided what the machine will run):
//  - every function holding counted operations gets a counted clone; the original gains a
//    one-branch dispatch at entry: `if (counting) return clone(args)`. Runs that do not count
//    (the native timing run, the cache simulation) execute the original code;
//  - in the clone, each basic block with operations increments a local counter; the counters
//    are promoted to registers (mem2reg) and added to a per-thread block before every call that
//    may reach a marker boundary or exit, and before returns;
//  - FLOP per execution of a block are fixed at compile time: an IR operation on a vector of N
//    lanes is N operations (FMA and fmuladd: 2 per lane). On AVX-512 targets an operation whose
//    only use is a lane select (the masked-instruction pattern the x86 backend folds into a
//    {k}-masked instruction) is counted with its active lanes, popcount(mask), at run time;
//    elsewhere the ISA computes every lane and blends, so every lane counts;
//  - calls to roofline_region_begin/end are followed/preceded by runtime hooks that snapshot
//    the thread's counts, so each marker region gets its counted W.
// The runtime contract (tables, slots, entries) is in runtime/flopcount_abi.h.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "../runtime/flopcount_abi.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Triple.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace {

// ---------------------------------------------------------------------------------------------
// What the target executes: the widest vector register its features enable (IR vectors wider
// than that are split by the backend into register-wide instructions) and whether masked
// AVX-512 instructions exist.

struct TargetInfo {
  bool x86 = false;
  bool avx512f = false, avx512vl = false;
  unsigned max_bits = 128;
};

TargetInfo target_of(const Function& F, const Triple& triple) {
  TargetInfo t;
  t.x86 = triple.isX86();
  if (!t.x86) return t;
  bool avx = false;
  // "+sse2,+avx,-avx512f,...": later entries override earlier ones, as in the backend.
  const StringRef features = F.getFnAttribute("target-features").getValueAsString();
  SmallVector<StringRef, 64> parts;
  features.split(parts, ',', -1, false);
  for (StringRef p : parts) {
    if (p.size() < 2) continue;
    const bool on = p[0] == '+';
    const StringRef name = p.drop_front();
    if (name == "avx") avx = on;
    if (name == "avx512f") t.avx512f = on;
    if (name == "avx512vl") t.avx512vl = on;
  }
  unsigned prefer = 0, min_legal = 0;
  if (F.hasFnAttribute("prefer-vector-width"))
    F.getFnAttribute("prefer-vector-width").getValueAsString().getAsInteger(10, prefer);
  if (F.hasFnAttribute("min-legal-vector-width"))
    F.getFnAttribute("min-legal-vector-width").getValueAsString().getAsInteger(10, min_legal);
  // x86 uses 512-bit registers only when AVX-512 is on and neither the preferred width nor the
  // widest vector the source uses restricts it to 256 (X86Subtarget::useAVX512Regs).
  if (t.avx512f && !(prefer != 0 && prefer <= 256 && min_legal <= 256))
    t.max_bits = 512;
  else if (avx || t.avx512f)
    t.max_bits = 256;
  return t;
}

// ---------------------------------------------------------------------------------------------
// Classifying one instruction.

struct OpClass {
  bool counted = false;
  uint16_t kind = RFC_KIND_FLOPS;
  uint16_t precision = RFC_PREC_NONE;
  unsigned lanes = 1;   ///< lanes the operation computes
  bool vector = false;  ///< false: a scalar instruction
  unsigned lane_bits = 0;
  uint64_t per_lane = 1;        ///< operations per lane (FMA: 2)
  bool not_arithmetic = false;  ///< a known intrinsic that moves, converts or compares data
};

uint16_t precision_of(Type* t) {
  if (t->isHalfTy()) return RFC_PREC_FP16;
  if (t->isBFloatTy()) return RFC_PREC_BF16;
  if (t->isFloatTy()) return RFC_PREC_FP32;
  if (t->isDoubleTy()) return RFC_PREC_FP64;
  if (t->isX86_FP80Ty()) return RFC_PREC_FP80;
  if (t->isFP128Ty() || t->isPPC_FP128Ty()) return RFC_PREC_FP128;
  return RFC_PREC_NONE;
}

/// Shape of a value's type: lanes, lane bits, vector or not. False for scalable vectors.
bool shape_of(Type* t, unsigned& lanes, unsigned& lane_bits, bool& vector, Type*& elem) {
  if (isa<ScalableVectorType>(t)) return false;
  if (auto* v = dyn_cast<FixedVectorType>(t)) {
    lanes = v->getNumElements();
    elem = v->getElementType();
    vector = true;
  } else {
    lanes = 1;
    elem = t;
    vector = false;
  }
  lane_bits = static_cast<unsigned>(elem->getPrimitiveSizeInBits().getFixedSize());
  return true;
}

OpClass fp_op(Type* t, uint64_t per_lane) {
  OpClass c;
  Type* elem = nullptr;
  if (!shape_of(t, c.lanes, c.lane_bits, c.vector, elem)) return c;
  c.precision = precision_of(elem);
  if (c.precision == RFC_PREC_NONE) return c;
  c.counted = true;
  c.per_lane = per_lane;
  return c;
}

// libm functions by name: evaluations are counted as "math", not as FLOP (their cost depends on
// the library's algorithm, which is not instrumented).
bool is_math_function(StringRef n) {
  static const std::set<std::string> names = [] {
    std::set<std::string> s;
    for (const char* base :
         {"exp",    "exp2", "expm1", "log",    "log2",  "log10",    "log1p", "pow",
          "sin",    "cos",  "tan",   "asin",   "acos",  "atan",     "atan2", "sinh",
          "cosh",   "tanh", "asinh", "acosh",  "atanh", "erf",      "erfc",  "tgamma",
          "lgamma", "cbrt", "hypot", "sincos", "fmod",  "remainder"}) {
      s.insert(base);
      s.insert(std::string(base) + "f");
      s.insert(std::string(base) + "l");
      s.insert("__" + std::string(base) + "_finite");
      s.insert("__" + std::string(base) + "f_finite");
    }
    return s;
  }();
  if (names.count(n.str())) return true;
  // Vector math (glibc libmvec, -fveclib): _ZGV<isa><mask><lanes><args>_<name>.
  if (n.startswith("_ZGV")) {
    const size_t u = n.find('_', 4);
    return u != StringRef::npos && names.count(n.substr(u + 1).str());
  }
  return false;
}

/// x86 target intrinsics that survive to the end of the pipeline (rounding-mode variants,
/// horizontal operations, dot products, VNNI, bf16 dot products).
OpClass x86_intrinsic(StringRef name, Type* ret) {
  OpClass none;
  StringRef r = name;
  if (!r.consume_front("llvm.x86.")) return none;
  SmallVector<StringRef, 8> tok;
  r.split(tok, '.');
  auto has = [&](StringRef t) {
    for (StringRef x : tok)
      if (x == t) return true;
    return false;
  };
  // VNNI: each 32-bit lane accumulates 4 (bytes) or 2 (words) products: a multiply and an add.
  for (StringRef x : tok) {
    const bool bytes = x.startswith("vpdpbusd") || x.startswith("vpdpbssd") ||
                       x.startswith("vpdpbsud") || x.startswith("vpdpbuud");
    const bool words = x.startswith("vpdpwssd") || x.startswith("vpdpwsud") ||
                       x.startswith("vpdpwusd") || x.startswith("vpdpwuud");
    if (bytes || words) {
      OpClass c;
      Type* elem = nullptr;
      if (!shape_of(ret, c.lanes, c.lane_bits, c.vector, elem)) return none;
      c.counted = true;
      c.kind = RFC_KIND_INT_OPS;
      c.precision = bytes ? RFC_PREC_INT8 : RFC_PREC_INT16;
      c.per_lane = bytes ? 8 : 4;
      return c;
    }
    if (x.startswith("dpbf16ps")) {  // per fp32 lane: two bf16 products and their sum added
      OpClass c = fp_op(ret, 4);
      c.precision = RFC_PREC_BF16;
      return c;
    }
  }
  // Complex fp16 (AVX512-FP16): each fp32-typed lane holds one complex number of two halves;
  // a complex multiply is 4 multiplies and 2 adds, a complex multiply-add 4 and 4.
  for (StringRef x : tok) {
    const bool cfma = x.startswith("vfmaddc") || x.startswith("vfcmaddc");
    const bool cmul = x.startswith("vfmulc") || x.startswith("vfcmulc");
    if (cfma || cmul) {
      OpClass c = fp_op(ret, cfma ? 8 : 6);
      c.precision = RFC_PREC_FP16;
      if (has("csh")) {
        c.lanes = 1;
        c.vector = false;
      }
      return c;
    }
  }
  // Data movement, conversion, rounding and classification: not floating-point arithmetic.
  for (StringRef x : tok)
    for (const char* p :
         {"blend",   "perm",      "vperm",      "round",     "rndscale", "cvt",        "vcvt",
          "shuf",    "movmsk",    "maskload",   "maskstore", "gather",   "scatter",    "compress",
          "expand",  "broadcast", "vbroadcast", "ldu",       "loadu",    "storeu",     "vtest",
          "ptest",   "cmp",       "fixupimm",   "getexp",    "getmant",  "range",      "reduce",
          "fpclass", "insert",    "extract",    "movnt",     "lddqu",    "vpermi2var", "vpermt2var",
          "and",     "or",        "xor",        "andn",      "movddup",  "movshdup",   "movsldup",
          "unpck",   "vinsert",   "vextract",   "pshuf"})
      if (x.startswith(p)) {
        OpClass moved;
        moved.not_arithmetic = true;
        return moved;
      }
  bool fma = false, dp = false, plain = false;
  for (StringRef x : tok) {
    if (x.startswith("vfmadd") || x.startswith("vfmsub") || x.startswith("vfnmadd") ||
        x.startswith("vfnmsub"))
      fma = true;
    if (x == "dpps" || x == "dppd" || x == "dp") dp = true;
    if (x == "add" || x == "sub" || x == "mul" || x == "div" || x == "min" || x == "max" ||
        x == "sqrt" || x == "rcp" || x == "rsqrt" || x == "rcp14" || x == "rsqrt14" ||
        x == "rcp28" || x == "rsqrt28" || x == "hadd" || x == "hsub" || x == "addsub")
      plain = true;
  }
  if (!fma && !dp && !plain) return none;
  // FP_ARITH convention: FMA and dot-product instructions do two operations per element.
  OpClass c = fp_op(ret, (fma || dp) ? 2 : 1);
  if (!c.counted) return c;
  if (has("ss") || has("sd") || has("sh")) {  // scalar forms act on lane 0 only
    c.lanes = 1;
    c.vector = false;
  }
  return c;
}

OpClass classify(Instruction& I) {
  if (auto* bo = dyn_cast<BinaryOperator>(&I)) {
    switch (bo->getOpcode()) {
      case Instruction::FAdd:
      case Instruction::FSub:
      case Instruction::FMul:
      case Instruction::FDiv:
      case Instruction::FRem:
        return fp_op(I.getType(), 1);
      default:
        return {};
    }
  }
  auto* call = dyn_cast<CallBase>(&I);
  if (!call) return {};
  Function* callee = call->getCalledFunction();
  if (!callee) return {};
  Type* ret = I.getType();
  switch (callee->getIntrinsicID()) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
    case Intrinsic::experimental_constrained_fma:
    case Intrinsic::experimental_constrained_fmuladd:
      return fp_op(ret, 2);
    case Intrinsic::sqrt:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
    case Intrinsic::experimental_constrained_fadd:
    case Intrinsic::experimental_constrained_fsub:
    case Intrinsic::experimental_constrained_fmul:
    case Intrinsic::experimental_constrained_fdiv:
    case Intrinsic::experimental_constrained_frem:
    case Intrinsic::experimental_constrained_sqrt:
      return fp_op(ret, 1);
    case Intrinsic::vector_reduce_fadd:
    case Intrinsic::vector_reduce_fmul: {
      // (start, vector): one operation per lane, the start value included. Counted as the
      // scalar operations of the reduction, whatever shuffles the backend uses.
      OpClass c = fp_op(call->getArgOperand(1)->getType(), 1);
      c.vector = false;
      return c;
    }
    case Intrinsic::vector_reduce_fmax:
    case Intrinsic::vector_reduce_fmin: {
      OpClass c = fp_op(call->getArgOperand(0)->getType(), 1);
      if (c.counted) c.lanes = c.lanes > 1 ? c.lanes - 1 : 1;
      c.vector = false;
      return c;
    }
    case Intrinsic::exp:
    case Intrinsic::exp2:
    case Intrinsic::log:
    case Intrinsic::log2:
    case Intrinsic::log10:
    case Intrinsic::sin:
    case Intrinsic::cos:
    case Intrinsic::pow:
    case Intrinsic::powi: {
      OpClass c = fp_op(ret, 1);
      c.kind = RFC_KIND_MATH;
      return c;
    }
    case Intrinsic::not_intrinsic:
      if (is_math_function(callee->getName())) {
        OpClass c = fp_op(ret->isVoidTy() ? Type::getDoubleTy(I.getContext()) : ret, 1);
        c.kind = RFC_KIND_MATH;
        return c;
      }
      return {};
    default:
      break;
  }
  if (callee->getName().startswith("llvm.x86.")) {
    OpClass c = x86_intrinsic(callee->getName(), ret);
    if (c.counted || c.not_arithmetic) return c;
    // A target intrinsic on floating-point data that is not in the table: reported, not guessed.
    Type* elem = ret->getScalarType();
    if (elem->isFloatingPointTy()) {
      OpClass u;
      u.counted = true;
      u.kind = RFC_KIND_UNCOUNTED;
      u.precision = precision_of(elem);
      u.lanes = 1;
      return u;
    }
  }
  return {};
}

/// A counted operation in one block: kind, precision, width, and either a fixed count per
/// execution or a run-time count (active lanes of a masked operation).
struct Category {
  uint16_t kind, precision, width;
  uint16_t masked;
  bool operator<(const Category& o) const {
    return std::tie(kind, precision, width, masked) <
           std::tie(o.kind, o.precision, o.width, o.masked);
  }
};

struct DynamicOp {
  Category cat;
  Instruction* select;  ///< the lane select the operation feeds
  bool active_when_true;
  uint64_t per_lane;
};

uint16_t width_of(const OpClass& c, const TargetInfo& t) {
  if (!c.vector) return 0;
  const unsigned bits = c.lanes * c.lane_bits;
  return static_cast<uint16_t>(bits < t.max_bits ? bits : t.max_bits);
}

/// The masked-instruction pattern: `select <N x i1> %m, (op ...), %other` with the operation's
/// only use in the select, on a target where x86 folds it into a {k}-masked instruction.
SelectInst* masked_select(Instruction& I, const OpClass& c, const TargetInfo& t, bool& when_true) {
  if (!c.vector || !t.x86 || !t.avx512f || !I.hasOneUse()) return nullptr;
  const unsigned bits = c.lanes * c.lane_bits;
  if (bits != 512 && !(t.avx512vl && (bits == 128 || bits == 256))) return nullptr;
  auto* sel = dyn_cast<SelectInst>(*I.user_begin());
  if (!sel || !sel->getCondition()->getType()->isVectorTy()) return nullptr;
  if (sel->getTrueValue() == &I && sel->getFalseValue() != &I)
    when_true = true;
  else if (sel->getFalseValue() == &I && sel->getTrueValue() != &I)
    when_true = false;
  else
    return nullptr;
  return sel;
}

/// Lanes set in a constant mask, or -1 when it is not constant.
int constant_lanes(Value* mask, unsigned lanes) {
  auto* c = dyn_cast<Constant>(mask);
  if (!c) return -1;
  int n = 0;
  for (unsigned i = 0; i < lanes; ++i) {
    Constant* e = c->getAggregateElement(i);
    if (!e) return -1;
    if (e->isOneValue()) ++n;
  }
  return n;
}

/// The original now calls its clone, which writes the thread's counters: memory attributes the
/// optimiser inferred (readnone, argmemonly, ...) no longer hold, on the functions or their calls.
void drop_memory_attributes(Function& F) {
#if LLVM_VERSION_MAJOR >= 16
  const Attribute::AttrKind kinds[] = {Attribute::Memory};
#else
  const Attribute::AttrKind kinds[] = {Attribute::ReadNone,
                                       Attribute::ReadOnly,
                                       Attribute::WriteOnly,
                                       Attribute::ArgMemOnly,
                                       Attribute::InaccessibleMemOnly,
                                       Attribute::InaccessibleMemOrArgMemOnly};
#endif
  for (Attribute::AttrKind k : kinds) F.removeFnAttr(k);
  for (User* u : F.users())
    if (auto* cb = dyn_cast<CallBase>(u))
      if (cb->getCalledFunction() == &F)
        for (Attribute::AttrKind k : kinds) cb->removeFnAttr(k);
}

bool is_runtime_function(StringRef n) {
  return n.startswith("__roofline_fc_");
}

// ---------------------------------------------------------------------------------------------

class FlopCountPass : public PassInfoMixin<FlopCountPass> {
 public:
  PreservedAnalyses run(Module& M, ModuleAnalysisManager&);
  static bool isRequired() { return true; }  // also at -O0 and in optnone functions
};

struct FunctionRecord {
  Function* original = nullptr;
  Function* counted = nullptr;
  uint32_t flags = 0;
  uint64_t static_flops = 0;
};

struct Entry {
  uint32_t slot, function;
  Category cat;
  uint64_t weight;
};

class Instrumenter {
 public:
  explicit Instrumenter(Module& M)
      : M_(M),
        C_(M.getContext()),
        triple_(M.getTargetTriple()),
        i8_(Type::getInt8Ty(C_)),
        i16_(Type::getInt16Ty(C_)),
        i32_(Type::getInt32Ty(C_)),
        i64_(Type::getInt64Ty(C_)),
        i8p_(Type::getInt8PtrTy(C_)),
        i64p_(Type::getInt64PtrTy(C_)) {}

  bool run();

 private:
  void declare_runtime();
  void insert_region_hooks(Function& F);
  uint64_t static_flops(Function& F);
  bool clonable(Function& F, uint32_t& why);
  // The steps of instrument_clone, in order (each is described where it is defined).
  struct Counters {
    BasicBlock *entry, *fetch, *body;
    PHINode* block;  ///< the thread's counter block, in the body
  };
  struct Operations {
    std::vector<std::pair<BasicBlock*, std::map<Category, uint64_t>>> per_block;
    std::vector<DynamicOp> dynamic;
  };
  struct Locals {
    std::vector<AllocaInst*> allocas;
    std::vector<uint32_t> slots;
  };
  struct Flush {
    Instruction *old, *sum, *store;
  };
  void instrument_clone(Function& C, uint32_t index);
  Counters fetch_counters(Function& C, const DebugLoc& dl);
  Operations collect_operations(Function& C, const Counters& k, const TargetInfo& target);
  Locals add_locals(const Counters& k, const Operations& ops, uint32_t index, const DebugLoc& dl);
  std::vector<Instruction*> flush_points(Function& C, const Counters& k);
  std::vector<Flush> add_flushes(const std::vector<Instruction*>& points, const Locals& l,
                                 Value* block, const DebugLoc& dl);
  static void promote(Function& C, const Locals& l, const std::vector<Flush>& flushes);
  void add_dispatch(Function& F, Function& C);
  void emit_tables();
  Constant* string_constant(StringRef s, const Twine& name);
  DebugLoc artificial_loc(Function& F) const;

  Module& M_;
  LLVMContext& C_;
  Triple triple_;
  Type *i8_, *i16_, *i32_, *i64_;
  PointerType *i8p_, *i64p_;
  FunctionCallee register_, unregister_, thread_block_, region_begin_, region_end_;
  GlobalVariable *tls_ = nullptr, *active_ = nullptr, *module_ = nullptr;
  std::vector<FunctionRecord> functions_;
  std::vector<Entry> entries_;
  uint32_t slots_ = 0;
};

DebugLoc Instrumenter::artificial_loc(Function& F) const {
  if (DISubprogram* sp = F.getSubprogram()) return DILocation::get(C_, 0, 0, sp);
  return DebugLoc();
}

Constant* Instrumenter::string_constant(StringRef s, const Twine& name) {
  Constant* data = ConstantDataArray::getString(C_, s, true);
  auto* gv = new GlobalVariable(M_, data->getType(), true, GlobalValue::PrivateLinkage, data, name);
  gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  gv->setAlignment(Align(1));
  Constant* zero = ConstantInt::get(i32_, 0);
  Constant* idx[] = {zero, zero};
  return ConstantExpr::getInBoundsGetElementPtr(data->getType(), gv, idx);
}

void Instrumenter::declare_runtime() {
  AttributeList nounwind =
      AttributeList::get(C_, AttributeList::FunctionIndex, Attribute::NoUnwind);
  register_ = M_.getOrInsertFunction("__roofline_fc_register", nounwind, i32_, i8p_);
  unregister_ =
      M_.getOrInsertFunction("__roofline_fc_unregister", nounwind, Type::getVoidTy(C_), i8p_);
  thread_block_ = M_.getOrInsertFunction("__roofline_fc_thread_block", nounwind, i64p_, i8p_,
                                         i64p_->getPointerTo());
  region_begin_ =
      M_.getOrInsertFunction("__roofline_fc_region_begin", nounwind, Type::getVoidTy(C_), i8p_);
  region_end_ =
      M_.getOrInsertFunction("__roofline_fc_region_end", nounwind, Type::getVoidTy(C_), i8p_);
  tls_ = new GlobalVariable(M_, i64p_, false, GlobalValue::InternalLinkage,
                            ConstantPointerNull::get(i64p_), "__roofline_fc_tls", nullptr,
                            GlobalValue::GeneralDynamicTLSModel);
  active_ = new GlobalVariable(M_, i32_, false, GlobalValue::InternalLinkage,
                               ConstantInt::get(i32_, 0), "__roofline_fc_active");
}

// After each call of roofline_region_begin(name), and before each roofline_region_end(name),
// a hook snapshots the thread's counts; the block is split after the marker call so that the
// operations after it are counted on the right side of the boundary.
void Instrumenter::insert_region_hooks(Function& F) {
  std::vector<CallBase*> calls;
  for (BasicBlock& BB : F)
    for (Instruction& I : BB)
      if (auto* cb = dyn_cast<CallBase>(&I))
        if (Function* callee = cb->getCalledFunction())
          if (callee->getName() == "roofline_region_begin" ||
              callee->getName() == "roofline_region_end")
            if (cb->arg_size() >= 1 && cb->getArgOperand(0)->getType()->isPointerTy())
              calls.push_back(cb);
  for (CallBase* cb : calls) {
    const bool begin = cb->getCalledFunction()->getName() == "roofline_region_begin";
    Value* name = cb->getArgOperand(0);
    Instruction* after = nullptr;
    if (begin) {
      Instruction* at = cb->getNextNode();
      if (auto* inv = dyn_cast<InvokeInst>(cb)) {
        BasicBlock* normal = inv->getNormalDest();
        if (!normal->getSinglePredecessor()) continue;
        at = &*normal->getFirstInsertionPt();
      }
      IRBuilder<> b(at);
      b.SetCurrentDebugLocation(cb->getDebugLoc());
      CallInst* hook = b.CreateCall(region_begin_, {b.CreatePointerCast(name, i8p_)});
      after = hook->getNextNode();
    } else {
      IRBuilder<> b(cb);
      b.SetCurrentDebugLocation(cb->getDebugLoc());
      b.CreateCall(region_end_, {b.CreatePointerCast(name, i8p_)});
      after = isa<InvokeInst>(cb) ? nullptr : cb->getNextNode();
    }
    if (after && !after->isTerminator()) SplitBlock(after->getParent(), after);
  }
}

uint64_t Instrumenter::static_flops(Function& F) {
  uint64_t n = 0;
  for (BasicBlock& BB : F)
    for (Instruction& I : BB) {
      const OpClass c = classify(I);
      if (c.counted && (c.kind == RFC_KIND_FLOPS || c.kind == RFC_KIND_INT_OPS))
        n += c.lanes * c.per_lane;
    }
  return n;
}

bool Instrumenter::clonable(Function& F, uint32_t& why) {
  if (F.isVarArg()) {
    why = RFC_FN_SKIPPED_VARARGS;
    return false;
  }
  if (F.hasFnAttribute(Attribute::Naked)) {
    why = RFC_FN_SKIPPED_OTHER;
    return false;
  }
  for (Argument& a : F.args())
    if (a.hasInAllocaAttr() || a.hasPreallocatedAttr() || a.hasSwiftErrorAttr()) {
      why = RFC_FN_SKIPPED_OTHER;
      return false;
    }
  for (BasicBlock& BB : F)
    if (BB.hasAddressTaken()) {
      why = RFC_FN_SKIPPED_OTHER;
      return false;
    }
  return true;
}

// 1. Entry: the thread's counter block, fetched once per call. Static allocas stay in the entry
//    block (they must, to remain static).
Instrumenter::Counters Instrumenter::fetch_counters(Function& C, const DebugLoc& dl) {
  Counters k;
  k.entry = &C.getEntryBlock();
  BasicBlock::iterator split = k.entry->getFirstInsertionPt();
  while (split != k.entry->end() && isa<AllocaInst>(&*split)) ++split;
  k.body = k.entry->splitBasicBlock(split, "flopcount.body");
  k.fetch = BasicBlock::Create(C_, "flopcount.fetch", &C, k.body);
  k.entry->getTerminator()->eraseFromParent();
  IRBuilder<> b(k.entry);
  b.SetCurrentDebugLocation(dl);
  LoadInst* cached = b.CreateLoad(i64p_, tls_, "flopcount.block");
  Value* missing = b.CreateICmpEQ(cached, ConstantPointerNull::get(i64p_));
  b.CreateCondBr(missing, k.fetch, k.body, MDBuilder(C_).createBranchWeights(1, 1000));
  b.SetInsertPoint(k.fetch);
  CallInst* fetched = b.CreateCall(thread_block_, {b.CreatePointerCast(module_, i8p_), tls_});
  b.CreateBr(k.body);
  b.SetInsertPoint(k.body, k.body->begin());
  k.block = b.CreatePHI(i64p_, 2, "flopcount.counters");
  k.block->addIncoming(cached, k.entry);
  k.block->addIncoming(fetched, k.fetch);
  return k;
}

// 2. What each block executes, fixed per execution, and the run-time (masked) counts. In block
//    order, so that slot numbers do not depend on where blocks sit in memory.
Instrumenter::Operations Instrumenter::collect_operations(Function& C, const Counters& k,
                                                          const TargetInfo& target) {
  Operations ops;
  for (BasicBlock& BB : C) {
    if (&BB == k.entry || &BB == k.fetch) continue;
    ops.per_block.emplace_back(&BB, std::map<Category, uint64_t>());
    std::map<Category, uint64_t>& here = ops.per_block.back().second;
    if (&BB == k.body) here[Category{RFC_KIND_CALLS, RFC_PREC_NONE, 0, 0}] += 1;
    for (Instruction& I : BB) {
      const OpClass c = classify(I);
      if (!c.counted) continue;
      const uint16_t width = width_of(c, target);
      bool when_true = true;
      if (SelectInst* sel = masked_select(I, c, target, when_true)) {
        const Category cat{c.kind, c.precision, width, 1};
        const int fixed = constant_lanes(sel->getCondition(), c.lanes);
        if (fixed >= 0) {
          const uint64_t active =
              when_true ? static_cast<uint64_t>(fixed) : c.lanes - static_cast<uint64_t>(fixed);
          if (active) here[cat] += active * c.per_lane;
        } else {
          ops.dynamic.push_back({cat, sel, when_true, c.per_lane});
        }
        continue;
      }
      here[Category{c.kind, c.precision, width, 0}] += c.lanes * c.per_lane;
    }
  }
  return ops;
}

// 3. One local counter per block with operations, one per run-time category; each gets a slot
//    of the thread's block and its table entries.
Instrumenter::Locals Instrumenter::add_locals(const Counters& k, const Operations& ops,
                                              uint32_t index, const DebugLoc& dl) {
  Locals l;
  IRBuilder<> eb(k.entry, k.entry->getFirstInsertionPt());
  eb.SetCurrentDebugLocation(dl);
  auto new_local = [&](uint32_t slot) {
    AllocaInst* a = eb.CreateAlloca(i64_, nullptr, "flopcount.local");
    l.allocas.push_back(a);
    l.slots.push_back(slot);
    return a;
  };
  for (const auto& [bb, cats] : ops.per_block) {
    if (cats.empty()) continue;
    const uint32_t slot = slots_++;
    for (const auto& [cat, weight] : cats) entries_.push_back({slot, index, cat, weight});
    AllocaInst* local = new_local(slot);
    IRBuilder<> ib(bb, bb->getFirstInsertionPt());  // after PHIs and EH pads
    ib.SetCurrentDebugLocation(dl);
    ib.CreateStore(ib.CreateAdd(ib.CreateLoad(i64_, local), ConstantInt::get(i64_, 1)), local);
  }
  std::map<Category, AllocaInst*> dynamic_local;
  for (const DynamicOp& d : ops.dynamic) {
    AllocaInst*& local = dynamic_local[d.cat];
    if (!local) {
      const uint32_t slot = slots_++;
      entries_.push_back({slot, index, d.cat, 1});
      local = new_local(slot);
    }
    auto* sel = cast<SelectInst>(d.select);
    Value* mask = sel->getCondition();
    const auto lanes =
        static_cast<unsigned>(cast<FixedVectorType>(mask->getType())->getNumElements());
    IRBuilder<> ib(sel);
    ib.SetCurrentDebugLocation(dl);
    Value* bits = ib.CreateBitCast(mask, IntegerType::get(C_, lanes));
    Value* set = ib.CreateZExtOrTrunc(ib.CreateUnaryIntrinsic(Intrinsic::ctpop, bits), i64_);
    if (!d.active_when_true) set = ib.CreateSub(ConstantInt::get(i64_, lanes), set);
    Value* n = ib.CreateMul(set, ConstantInt::get(i64_, d.per_lane));
    ib.CreateStore(ib.CreateAdd(ib.CreateLoad(i64_, local), n), local);
  }
  for (AllocaInst* a : l.allocas) {
    IRBuilder<> ib(k.entry->getTerminator());
    ib.CreateStore(ConstantInt::get(i64_, 0), a);
  }
  return l;
}

// 4. Where the locals are flushed into the thread's block: before returns and before calls that
//    may reach a marker boundary, fork or exit (calls that touch no memory, or only their
//    arguments', cannot).
std::vector<Instruction*> Instrumenter::flush_points(Function& C, const Counters& k) {
  std::vector<Instruction*> at;
  for (BasicBlock& BB : C) {
    if (&BB == k.entry || &BB == k.fetch) continue;
    for (Instruction& I : BB) {
      if (isa<ReturnInst>(I) || isa<ResumeInst>(I)) {
        at.push_back(&I);
        continue;
      }
      auto* cb = dyn_cast<CallBase>(&I);
      if (!cb || cb->isInlineAsm() || isa<IntrinsicInst>(cb)) continue;
      if (Function* f = cb->getCalledFunction())
        if (f->getName() == "__roofline_fc_thread_block") continue;
      if (cb->doesNotAccessMemory() || cb->onlyAccessesArgMemory()) continue;
      at.push_back(&I);
    }
  }
  return at;
}

std::vector<Instrumenter::Flush> Instrumenter::add_flushes(const std::vector<Instruction*>& points,
                                                           const Locals& l, Value* block,
                                                           const DebugLoc& dl) {
  std::vector<Flush> flushes;
  for (Instruction* at : points) {
    IRBuilder<> ib(at);
    ib.SetCurrentDebugLocation(dl);
    for (size_t i = 0; i < l.allocas.size(); ++i) {
      Value* v = ib.CreateLoad(i64_, l.allocas[i]);
      Value* p = ib.CreateInBoundsGEP(i64_, block, ConstantInt::get(i64_, l.slots[i]));
      auto* old = cast<Instruction>(ib.CreateLoad(i64_, p));
      auto* sum = cast<Instruction>(ib.CreateAdd(old, v));
      auto* st = cast<Instruction>(ib.CreateStore(sum, p));
      ib.CreateStore(ConstantInt::get(i64_, 0), l.allocas[i]);
      flushes.push_back({old, sum, st});
    }
  }
  return flushes;
}

// 5. Counters to registers; flushes that can only add zero go.
void Instrumenter::promote(Function& C, const Locals& l, const std::vector<Flush>& flushes) {
  DominatorTree dt(C);
  PromoteMemToReg(l.allocas, dt);
  for (const Flush& f : flushes) {
    auto* add = cast<BinaryOperator>(f.sum);
    if (auto* k = dyn_cast<ConstantInt>(add->getOperand(1)))
      if (k->isZero()) {
        f.store->eraseFromParent();
        f.sum->eraseFromParent();
        f.old->eraseFromParent();
      }
  }
}

void Instrumenter::instrument_clone(Function& C, uint32_t index) {
  const DebugLoc dl = artificial_loc(C);
  const Counters k = fetch_counters(C, dl);
  const Operations ops = collect_operations(C, k, target_of(C, triple_));
  const Locals l = add_locals(k, ops, index, dl);
  const std::vector<Flush> flushes = add_flushes(flush_points(C, k), l, k.block, dl);
  promote(C, l, flushes);
}

// The original keeps its name, address and code; at entry one load and branch decide whether
// the counted clone runs instead.
void Instrumenter::add_dispatch(Function& F, Function& C) {
  BasicBlock* old_entry = &F.getEntryBlock();
  BasicBlock* dispatch = BasicBlock::Create(C_, "flopcount.dispatch", &F, old_entry);
  BasicBlock* counted = BasicBlock::Create(C_, "flopcount.counted", &F, old_entry);
  std::vector<AllocaInst*> allocas;
  for (Instruction& I : *old_entry)
    if (auto* a = dyn_cast<AllocaInst>(&I))
      if (a->isStaticAlloca()) allocas.push_back(a);
  IRBuilder<> b(dispatch);
  b.SetCurrentDebugLocation(artificial_loc(F));
  for (AllocaInst* a : allocas) a->moveBefore(*dispatch, dispatch->end());
  Value* on = b.CreateICmpNE(b.CreateLoad(i32_, active_), ConstantInt::get(i32_, 0));
  b.CreateCondBr(on, counted, old_entry, MDBuilder(C_).createBranchWeights(1, 2000));
  b.SetInsertPoint(counted);
  std::vector<Value*> args;
  for (Argument& a : F.args()) args.push_back(&a);
  CallInst* call = b.CreateCall(C.getFunctionType(), &C, args);
  call->setCallingConv(F.getCallingConv());
  std::vector<AttributeSet> params;
  for (unsigned i = 0; i < F.arg_size(); ++i) params.push_back(F.getAttributes().getParamAttrs(i));
  call->setAttributes(
      AttributeList::get(C_, AttributeSet(), F.getAttributes().getRetAttrs(), params));
  call->setTailCallKind(CallInst::TCK_Tail);
  if (F.getReturnType()->isVoidTy())
    b.CreateRetVoid();
  else
    b.CreateRet(call);
}

void Instrumenter::emit_tables() {
  // struct rfc_entry {u32 slot, u32 function, u16 kind, u16 precision, u16 width, u16 masked,
  //                   u64 weight}
  StructType* entry_ty = StructType::get(C_, {i32_, i32_, i16_, i16_, i16_, i16_, i64_});
  // struct rfc_function {name, address, counted, file, u32 line, u32 flags, u64 static_flops}
  StructType* fn_ty = StructType::get(C_, {i8p_, i8p_, i8p_, i8p_, i32_, i32_, i64_});
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.function < b.function; });
  std::vector<Constant*> es;
  for (const Entry& e : entries_)
    es.push_back(ConstantStruct::get(
        entry_ty, {ConstantInt::get(i32_, e.slot), ConstantInt::get(i32_, e.function),
                   ConstantInt::get(i16_, e.cat.kind), ConstantInt::get(i16_, e.cat.precision),
                   ConstantInt::get(i16_, e.cat.width), ConstantInt::get(i16_, e.cat.masked),
                   ConstantInt::get(i64_, e.weight)}));
  std::vector<Constant*> fs;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const FunctionRecord& r = functions_[i];
    std::string file;
    unsigned line = 0;
    if (DISubprogram* sp = r.original->getSubprogram()) {
      file = sp->getFilename().str();
      line = sp->getLine();
    }
    fs.push_back(ConstantStruct::get(
        fn_ty,
        {string_constant(r.original->getName(), "__roofline_fc_name"),
         ConstantExpr::getPointerCast(r.original, i8p_),
         r.counted ? ConstantExpr::getPointerCast(r.counted, i8p_) : ConstantPointerNull::get(i8p_),
         string_constant(file, "__roofline_fc_file"), ConstantInt::get(i32_, line),
         ConstantInt::get(i32_, r.flags), ConstantInt::get(i64_, r.static_flops)}));
  }
  auto array = [&](Type* ty, std::vector<Constant*>& v, const char* name) -> Constant* {
    if (v.empty()) return ConstantPointerNull::get(i8p_);
    ArrayType* at = ArrayType::get(ty, v.size());
    auto* gv = new GlobalVariable(M_, at, true, GlobalValue::PrivateLinkage,
                                  ConstantArray::get(at, v), name);
    gv->setAlignment(Align(8));
    return ConstantExpr::getPointerCast(gv, i8p_);
  };
  // struct rfc_module {u32 abi, u32 slots, u32 functions, u32 entries, source, functions,
  //                    entries, runtime}
  auto* mod_ty = cast<StructType>(module_->getValueType());
  module_->setInitializer(ConstantStruct::get(
      mod_ty, {ConstantInt::get(i32_, RFC_ABI_VERSION), ConstantInt::get(i32_, slots_),
               ConstantInt::get(i32_, static_cast<uint64_t>(functions_.size())),
               ConstantInt::get(i32_, static_cast<uint64_t>(entries_.size())),
               string_constant(M_.getSourceFileName(), "__roofline_fc_source"),
               array(fn_ty, fs, "__roofline_fc_functions"),
               array(entry_ty, es, "__roofline_fc_entries"), ConstantPointerNull::get(i8p_)}));

  // Constructor: register the module and learn whether this run counts. Destructor: hand the
  // counts over before a shared object is unloaded.
  auto make = [&](const char* name, bool ctor) {
    Function* f = Function::Create(FunctionType::get(Type::getVoidTy(C_), false),
                                   GlobalValue::InternalLinkage, name, M_);
    f->addFnAttr(Attribute::NoUnwind);
    IRBuilder<> b(BasicBlock::Create(C_, "entry", f));
    Value* mod = b.CreatePointerCast(module_, i8p_);
    if (ctor)
      b.CreateStore(b.CreateCall(register_, {mod}), active_);
    else
      b.CreateCall(unregister_, {mod});
    b.CreateRetVoid();
    return f;
  };
  appendToGlobalCtors(M_, make("__roofline_fc_ctor", true), 1);
  appendToGlobalDtors(M_, make("__roofline_fc_dtor", false), 1);
}

bool Instrumenter::run() {
  if (M_.getNamedValue("__roofline_fc_module")) return false;  // instrumented already
  std::vector<Function*> defined;
  for (Function& F : M_)
    if (!F.isDeclaration() && !F.hasAvailableExternallyLinkage() &&
        !is_runtime_function(F.getName()))
      defined.push_back(&F);
  bool any_ops = false;
  std::vector<bool> has_ops(defined.size());
  for (size_t i = 0; i < defined.size(); ++i) {
    for (BasicBlock& BB : *defined[i])
      for (Instruction& I : BB)
        if (classify(I).counted) has_ops[i] = true;
    any_ops = any_ops || has_ops[i];
  }
  bool any_markers = false;
  for (Function* F : defined)
    for (BasicBlock& BB : *F)
      for (Instruction& I : BB)
        if (auto* cb = dyn_cast<CallBase>(&I))
          if (Function* callee = cb->getCalledFunction())
            if (callee->getName() == "roofline_region_begin" ||
                callee->getName() == "roofline_region_end")
              any_markers = true;
  if (!any_ops && !any_markers) return false;

  declare_runtime();
  // The descriptor exists from the start (clones refer to it); its contents come last.
  StructType* mod_ty = StructType::get(C_, {i32_, i32_, i32_, i32_, i8p_, i8p_, i8p_, i8p_});
  module_ = new GlobalVariable(M_, mod_ty, false, GlobalValue::InternalLinkage,
                               Constant::getNullValue(mod_ty), "__roofline_fc_module");
  module_->setAlignment(Align(8));
  for (Function* F : defined) insert_region_hooks(*F);
  for (size_t i = 0; i < defined.size(); ++i) {
    if (!has_ops[i]) continue;
    Function& F = *defined[i];
    FunctionRecord rec;
    rec.original = &F;
    uint32_t why = 0;
    if (!clonable(F, why)) {
      rec.flags = why;
      rec.static_flops = static_flops(F);
      functions_.push_back(rec);
      continue;
    }
    ValueToValueMapTy vmap;
    Function* clone = CloneFunction(&F, vmap);
    clone->setName(F.getName() + ".roofline.counted");
    clone->setLinkage(GlobalValue::InternalLinkage);
    clone->setVisibility(GlobalValue::DefaultVisibility);
    clone->setDLLStorageClass(GlobalValue::DefaultStorageClass);
    if (F.hasComdat()) clone->setComdat(F.getComdat());
    rec.counted = clone;
    rec.flags = RFC_FN_COUNTED;
    const auto index = static_cast<uint32_t>(functions_.size());
    functions_.push_back(rec);
    instrument_clone(*clone, index);
    add_dispatch(F, *clone);
    drop_memory_attributes(F);
    drop_memory_attributes(*clone);
  }
  emit_tables();
  return true;
}

PreservedAnalyses FlopCountPass::run(Module& M, ModuleAnalysisManager&) {
  Instrumenter inst(M);
  return inst.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "RooflineFlopCount", LLVM_VERSION_STRING, [](PassBuilder& PB) {
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager& MPM, OptimizationLevel) { MPM.addPass(FlopCountPass()); });
          }};
}
