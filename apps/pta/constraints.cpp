// Constraint extraction from LLVM IR (constraints.h; rules in docs/pta.md).
#include "pta/constraints.h"

#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace dd::pta {

const char *kind_name(Kind kind) {
  switch (kind) {
  case Kind::kAddressOf:
    return "addr";
  case Kind::kCopy:
    return "copy";
  case Kind::kLoad:
    return "load";
  case Kind::kStore:
    return "store";
  }
  return "?";
}

std::uint32_t ConstraintSet::add_node(std::string name, NodeKind kind, std::uint32_t size) {
  names.push_back(std::move(name));
  kinds.push_back(kind);
  sizes.push_back(size);
  return static_cast<std::uint32_t>(names.size() - 1);
}

std::vector<std::uint64_t> ConstraintSet::count_by_kind() const {
  std::vector<std::uint64_t> counts(kNumKinds, 0);
  for (const Constraint &c : constraints)
    ++counts[static_cast<int>(c.kind)];
  return counts;
}

Status validate(const ConstraintSet &set) {
  const std::uint64_t n = set.names.size();
  if (set.kinds.size() != n || set.sizes.size() != n)
    return Status::error("names, kinds and sizes differ in length");
  for (std::uint64_t i = 0; i < n; ++i)
    if (set.sizes[i] == 0 || set.sizes[i] > n - i)
      return Status::error(dd::graph::str_cat("node ", i, "'s block of ", set.sizes[i],
                                              " nodes does not fit"));
  for (std::uint64_t i = 0; i < set.constraints.size(); ++i) {
    const Constraint &c = set.constraints[i];
    if (c.dst >= n || c.src >= n)
      return Status::error(dd::graph::str_cat("constraint ", i, " names a node beyond ", n));
    if (c.offset != 0 && c.kind != Kind::kLoad && c.kind != Kind::kStore)
      return Status::error(dd::graph::str_cat("constraint ", i, ": only loads and stores "
                                              "have offsets"));
  }
  return Status();
}

namespace {

using namespace llvm;

// Where an operand's points-to information comes from: a node (its set), an
// address (the location itself: an alloca, a global, a function), or
// nothing (null, integers, undef, inttoptr).
struct Operand {
  enum Type { kNone, kNode, kAddress } type = kNone;
  std::uint32_t id = 0;
};

// Allocation functions recognized by declaration (a body of one's own is
// analysed as written instead).
bool is_allocator(const Function &f) {
  if (!f.isDeclaration())
    return false;
  const StringRef name = f.getName();
  static const std::set<std::string> kNames = {
      "malloc", "calloc", "realloc", "reallocarray", "aligned_alloc", "valloc", "memalign",
      "pvalloc", "strdup", "strndup"};
  // operator new and new[] in every overload (Itanium: _Znwm, _Znam, ...).
  return kNames.count(name.str()) || name.starts_with("_Znw") || name.starts_with("_Zna");
}

// Library functions that return their first argument.
bool returns_first_argument(const Function &f) {
  static const std::set<std::string> kNames = {"memcpy", "memmove", "memset", "strcpy",
                                               "strncpy", "strcat", "strncat", "stpcpy"};
  return f.isDeclaration() && kNames.count(f.getName().str());
}

bool holds_pointer(Type *type) {
  if (type->isPointerTy())
    return true;
  if (auto *s = dyn_cast<StructType>(type)) {
    for (Type *e : s->elements())
      if (holds_pointer(e))
        return true;
    return false;
  }
  if (auto *a = dyn_cast<ArrayType>(type))
    return holds_pointer(a->getElementType());
  if (auto *v = dyn_cast<VectorType>(type))
    return holds_pointer(v->getElementType());
  return false;
}

class Extractor {
public:
  Extractor(const Module &m, ExtractionStats &stats) : module_(m), slots_(&m), stats_(stats) {}

  ConstraintSet run() {
    // Locations first, so every function's block exists before any call.
    for (const GlobalVariable &g : module_.globals())
      objects_[&g] = node("@" + g.getName().str(), NodeKind::kObject);
    for (const Function &f : module_) {
      const std::uint32_t params = static_cast<std::uint32_t>(f.arg_size());
      const std::uint32_t obj = node("@" + f.getName().str(), NodeKind::kObject, 2 + params);
      objects_[&f] = obj;
      name_block_node(obj + 1, f.getName().str() + ":<ret>");
      for (const Argument &a : f.args()) {
        const std::uint32_t id = obj + 2 + a.getArgNo();
        name_block_node(id, f.getName().str() + ":%" +
                                (a.hasName() ? a.getName().str() : std::to_string(a.getArgNo())));
        values_[&a] = id;
      }
    }
    for (const GlobalVariable &g : module_.globals())
      if (g.hasInitializer())
        initializer(objects_.at(&g), g.getInitializer());
    for (const Function &f : module_)
      if (!f.isDeclaration())
        function(f);
    return std::move(set_);
  }

private:
  std::uint32_t node(std::string name, NodeKind kind, std::uint32_t size = 1) {
    // Names are unique: a repeat (two heap sites on one line) gets "#2", ...
    if (!used_names_.insert(name).second) {
      for (int k = 2;; ++k) {
        std::string alt = name + "#" + std::to_string(k);
        if (used_names_.insert(alt).second) {
          name = alt;
          break;
        }
      }
    }
    const std::uint32_t id = set_.add_node(std::move(name), kind, 1);
    // The rest of a function's block: named by name_block_node().
    for (std::uint32_t i = 1; i < size; ++i)
      set_.add_node("", NodeKind::kVariable, 1);
    set_.sizes[id] = size;
    return id;
  }

  void name_block_node(std::uint32_t id, std::string name) {
    if (!used_names_.insert(name).second)
      for (int k = 2;; ++k)
        if (used_names_.insert(name + "#" + std::to_string(k)).second) {
          name += "#" + std::to_string(k);
          break;
        }
    set_.names[id] = std::move(name);
  }

  std::string local_name(const Function &f, const Value &v) {
    std::string text = f.getName().str() + ":%";
    if (v.hasName())
      return text + v.getName().str();
    const int slot = slots_.getLocalSlot(&v);
    return text + (slot >= 0 ? std::to_string(slot) : "?");
  }

  std::uint32_t temp() {
    return set_.add_node("<tmp " + std::to_string(set_.num_nodes()) + ">", NodeKind::kTemp);
  }

  // The node of an instruction's pointer result, made on first use (a phi
  // may name a value defined later).
  std::uint32_t value_node(const Value *v) {
    if (auto it = values_.find(v); it != values_.end())
      return it->second;
    const auto *inst = cast<Instruction>(v);
    const std::uint32_t id = node(local_name(*inst->getFunction(), *v), NodeKind::kVariable);
    values_[v] = id;
    return id;
  }

  Operand operand(const Value *v) {
    if (auto it = objects_.find(v); it != objects_.end())
      return {Operand::kAddress, it->second};
    if (const auto *alias = dyn_cast<GlobalAlias>(v))
      return operand(alias->getAliasee());
    if (isa<AllocaInst>(v))
      return {Operand::kAddress, alloca_object(cast<AllocaInst>(v))};
    if (isa<Instruction>(v) || isa<Argument>(v)) {
      if (!holds_pointer(v->getType()))
        return {};
      return {Operand::kNode, value_node(v)};
    }
    if (const auto *ce = dyn_cast<ConstantExpr>(v)) {
      // Field-insensitive: a GEP or cast of an address is the address.
      if (ce->getOpcode() == Instruction::GetElementPtr || ce->isCast()) {
        if (ce->getOpcode() == Instruction::IntToPtr) {
          ++stats_.int_to_ptr;
          return {};
        }
        return operand(ce->getOperand(0));
      }
      return {};
    }
    if (const auto *agg = dyn_cast<ConstantAggregate>(v)) {
      // A constant struct or array of addresses: one temporary holds them all.
      std::vector<std::uint32_t> targets;
      collect_addresses(agg, targets);
      if (targets.empty())
        return {};
      const std::uint32_t t = temp();
      for (std::uint32_t target : targets)
        set_.add(Kind::kAddressOf, t, target);
      return {Operand::kNode, t};
    }
    return {};
  }

  std::uint32_t alloca_object(const AllocaInst *a) {
    auto [it, added] = objects_.try_emplace(a, 0);
    if (added)
      it->second = node(local_name(*a->getFunction(), *a), NodeKind::kObject);
    return it->second;
  }

  void collect_addresses(const Constant *c, std::vector<std::uint32_t> &out) {
    if (isa<ConstantAggregate>(c)) {
      for (const Use &u : c->operands())
        collect_addresses(cast<Constant>(u.get()), out);
      return;
    }
    if (!c->getType()->isPointerTy())
      return;
    const Operand o = operand(c);
    if (o.type == Operand::kAddress)
      out.push_back(o.id);
  }

  void initializer(std::uint32_t object, const Constant *init) {
    std::vector<std::uint32_t> targets;
    collect_addresses(init, targets);
    for (std::uint32_t target : targets)
      set_.add(Kind::kAddressOf, object, target);
  }

  // The operand as a node (a temporary for an address); nothing for none.
  std::optional<std::uint32_t> as_node(const Operand &o) {
    if (o.type == Operand::kNone)
      return std::nullopt;
    if (o.type == Operand::kNode)
      return o.id;
    const std::uint32_t t = temp();
    set_.add(Kind::kAddressOf, t, o.id);
    return t;
  }

  // dst = v
  void assign(std::uint32_t dst, const Value *v) {
    const Operand o = operand(v);
    if (o.type == Operand::kNode)
      set_.add(Kind::kCopy, dst, o.id);
    else if (o.type == Operand::kAddress)
      set_.add(Kind::kAddressOf, dst, o.id);
  }

  // dst = *ptr
  void load(std::uint32_t dst, const Value *ptr) {
    const Operand p = operand(ptr);
    if (p.type == Operand::kNode)
      set_.add(Kind::kLoad, dst, p.id);
    else if (p.type == Operand::kAddress)
      set_.add(Kind::kCopy, dst, p.id);
  }

  // *ptr = v
  void store(const Value *ptr, const Value *v) {
    const Operand p = operand(ptr);
    const Operand o = operand(v);
    if (p.type == Operand::kNone || o.type == Operand::kNone)
      return;
    if (p.type == Operand::kAddress) {
      set_.add(o.type == Operand::kNode ? Kind::kCopy : Kind::kAddressOf, p.id, o.id);
      return;
    }
    set_.add(Kind::kStore, p.id, *as_node(o));
  }

  // *dst = *src, field-insensitively (memcpy, memmove).
  void copy_memory(const Value *dst, const Value *src) {
    const Operand d = operand(dst);
    const Operand s = operand(src);
    if (d.type == Operand::kNone || s.type == Operand::kNone)
      return;
    const std::uint32_t t = temp();
    if (s.type == Operand::kNode)
      set_.add(Kind::kLoad, t, s.id);
    else
      set_.add(Kind::kCopy, t, s.id);
    if (d.type == Operand::kNode)
      set_.add(Kind::kStore, d.id, t);
    else
      set_.add(Kind::kCopy, d.id, t);
  }

  std::string heap_name(const Function &f, const Instruction &inst) {
    if (const DebugLoc &loc = inst.getDebugLoc(); loc && loc.getLine() != 0)
      return "heap@" + f.getName().str() + ":" + std::to_string(loc.getLine());
    return "heap@" + local_name(f, inst);
  }

  void call(const Function &f, const CallBase &cb) {
    const Value *callee = cb.getCalledOperand()->stripPointerCastsAndAliases();
    const auto *target = dyn_cast<Function>(callee);
    const bool result = holds_pointer(cb.getType());
    if (isa<InlineAsm>(callee))
      return;
    if (target && target->isIntrinsic()) {
      const Intrinsic::ID id = target->getIntrinsicID();
      if (id == Intrinsic::memcpy || id == Intrinsic::memmove || id == Intrinsic::memcpy_inline)
        copy_memory(cb.getArgOperand(0), cb.getArgOperand(1));
      return; // the rest move no pointers (lifetime, dbg, memset, ...)
    }
    if (target && is_allocator(*target)) {
      if (result) {
        const std::uint32_t site = node(heap_name(f, cb), NodeKind::kObject);
        set_.add(Kind::kAddressOf, value_node(&cb), site);
        // realloc may return its argument, with the old contents.
        if (target->getName() == "realloc" || target->getName() == "reallocarray") {
          assign(value_node(&cb), cb.getArgOperand(0));
          copy_memory(&cb, cb.getArgOperand(0));
        }
      }
      return;
    }
    if (target && target->isDeclaration()) {
      const StringRef name = target->getName();
      if (name == "memcpy" || name == "memmove")
        copy_memory(cb.getArgOperand(0), cb.getArgOperand(1));
      if (name == "posix_memalign" && cb.arg_size() >= 1) {
        const std::uint32_t site = node(heap_name(f, cb), NodeKind::kObject);
        const std::uint32_t t = temp();
        set_.add(Kind::kAddressOf, t, site);
        const Operand p = operand(cb.getArgOperand(0));
        if (p.type == Operand::kNode)
          set_.add(Kind::kStore, p.id, t);
        else if (p.type == Operand::kAddress)
          set_.add(Kind::kCopy, p.id, t);
        return;
      }
      if (returns_first_argument(*target)) {
        if (result && cb.arg_size() >= 1)
          assign(value_node(&cb), cb.getArgOperand(0));
        return;
      }
      ++stats_.external_calls;
      return;
    }
    if (target) {
      // Direct: arguments to parameters, the return value to the result.
      const std::uint32_t block = objects_.at(target);
      const std::uint32_t params = static_cast<std::uint32_t>(target->arg_size());
      for (std::uint32_t i = 0; i < cb.arg_size(); ++i) {
        if (i >= params) {
          ++stats_.vararg_args;
          continue;
        }
        assign(block + 2 + i, cb.getArgOperand(i));
      }
      if (result)
        set_.add(Kind::kCopy, value_node(&cb), block + 1);
      return;
    }
    // Indirect: through the function pointer's targets, at the offsets of
    // their blocks (the solver skips targets with too few parameters).
    ++stats_.indirect_calls;
    const Operand fp = operand(callee);
    if (fp.type != Operand::kNode)
      return;
    for (std::uint32_t i = 0; i < cb.arg_size(); ++i)
      if (std::optional<std::uint32_t> a = as_node(operand(cb.getArgOperand(i))))
        set_.add(Kind::kStore, fp.id, *a, 2 + i);
    if (result)
      set_.add(Kind::kLoad, value_node(&cb), fp.id, 1);
  }

  void function(const Function &f) {
    ++stats_.functions;
    slots_.incorporateFunction(f);
    const std::uint32_t block = objects_.at(&f);
    for (const Instruction &inst : instructions(f)) {
      if (isa<AllocaInst>(inst)) {
        alloca_object(cast<AllocaInst>(&inst));
      } else if (const auto *ld = dyn_cast<LoadInst>(&inst)) {
        if (holds_pointer(ld->getType()))
          load(value_node(ld), ld->getPointerOperand());
      } else if (const auto *st = dyn_cast<StoreInst>(&inst)) {
        if (holds_pointer(st->getValueOperand()->getType()))
          store(st->getPointerOperand(), st->getValueOperand());
      } else if (const auto *gep = dyn_cast<GetElementPtrInst>(&inst)) {
        assign(value_node(gep), gep->getPointerOperand());
      } else if (isa<BitCastInst>(inst) || isa<AddrSpaceCastInst>(inst) || isa<FreezeInst>(inst)) {
        if (holds_pointer(inst.getType()))
          assign(value_node(&inst), inst.getOperand(0));
      } else if (isa<IntToPtrInst>(inst)) {
        ++stats_.int_to_ptr;
      } else if (const auto *phi = dyn_cast<PHINode>(&inst)) {
        if (holds_pointer(phi->getType()))
          for (const Value *in : phi->incoming_values())
            assign(value_node(phi), in);
      } else if (const auto *sel = dyn_cast<SelectInst>(&inst)) {
        if (holds_pointer(sel->getType())) {
          assign(value_node(sel), sel->getTrueValue());
          assign(value_node(sel), sel->getFalseValue());
        }
      } else if (isa<ExtractValueInst>(inst) || isa<ExtractElementInst>(inst)) {
        if (holds_pointer(inst.getType()))
          assign(value_node(&inst), inst.getOperand(0));
      } else if (isa<InsertValueInst>(inst) || isa<InsertElementInst>(inst)) {
        if (holds_pointer(inst.getType())) {
          assign(value_node(&inst), inst.getOperand(0));
          assign(value_node(&inst), inst.getOperand(1));
        }
      } else if (const auto *x = dyn_cast<AtomicCmpXchgInst>(&inst)) {
        if (holds_pointer(x->getNewValOperand()->getType())) {
          store(x->getPointerOperand(), x->getNewValOperand());
          load(value_node(x), x->getPointerOperand());
        }
      } else if (const auto *rmw = dyn_cast<AtomicRMWInst>(&inst)) {
        if (holds_pointer(rmw->getType())) {
          store(rmw->getPointerOperand(), rmw->getValOperand());
          load(value_node(rmw), rmw->getPointerOperand());
        }
      } else if (const auto *ret = dyn_cast<ReturnInst>(&inst)) {
        if (const Value *v = ret->getReturnValue(); v && holds_pointer(v->getType()))
          assign(block + 1, v);
      } else if (const auto *cb = dyn_cast<CallBase>(&inst)) {
        call(f, *cb);
      }
    }
  }

  const Module &module_;
  ModuleSlotTracker slots_;
  ExtractionStats &stats_;
  ConstraintSet set_;
  std::unordered_map<const Value *, std::uint32_t> objects_; ///< locations
  std::unordered_map<const Value *, std::uint32_t> values_;  ///< variables
  std::unordered_set<std::string> used_names_;
};

Expected<ConstraintSet> extract(std::unique_ptr<Module> module, const SMDiagnostic &diag,
                                const std::string &name, ExtractionStats *stats) {
  if (!module) {
    std::string text;
    raw_string_ostream os(text);
    os << (diag.getFilename().empty() ? StringRef(name) : diag.getFilename());
    if (diag.getLineNo() > 0)
      os << ':' << diag.getLineNo() << ':' << diag.getColumnNo() + 1;
    os << ": " << diag.getMessage();
    return Status::error(os.str());
  }
  ExtractionStats local;
  Extractor extractor(*module, stats ? *stats : local);
  return extractor.run();
}

} // namespace

Expected<ConstraintSet> read_constraints(const std::string &path, ExtractionStats *stats) {
  LLVMContext context;
  SMDiagnostic diag;
  std::unique_ptr<Module> module = parseIRFile(path, diag, context);
  return extract(std::move(module), diag, path, stats);
}

Expected<ConstraintSet> parse_constraints(const std::string &ir, const std::string &name,
                                          ExtractionStats *stats) {
  LLVMContext context;
  SMDiagnostic diag;
  std::unique_ptr<Module> module =
      parseIR(MemoryBufferRef(ir, name), diag, context);
  return extract(std::move(module), diag, name, stats);
}

} // namespace dd::pta
