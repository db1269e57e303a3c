//===- NvccCommand.cpp - Translating nvcc compile commands ----------------===//
#include "NvccCommand.h"
#include "CudaPath.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include <algorithm>
#include <mutex>
#include <optional>

using namespace llvm;
using clang::tooling::CompileCommand;

namespace decoupler::tool {
namespace {

/// The options that survive, by the clang spelling they are written in.
enum class Kept {
  None,
  Include,
  System,
  Define,
  Undefine,
  Std,
  PreInclude,
  IQuote,
  IDirAfter
};

/// nvcc options (long and short names, from `nvcc --help` of CUDA 13) whose
/// value may be the next argument; dropping one drops that value too.
constexpr StringRef ValueOptions[] = {"--output-file",
                                      "-o",
                                      "--library",
                                      "-l",
                                      "--library-path",
                                      "-L",
                                      "--output-directory",
                                      "-odir",
                                      "--compiler-bindir",
                                      "-ccbin",
                                      "--archiver-binary",
                                      "-arbin",
                                      "--cudart",
                                      "-cudart",
                                      "--cudadevrt",
                                      "-cudadevrt",
                                      "--libdevice-directory",
                                      "-ldir",
                                      "--target-directory",
                                      "-target-dir",
                                      "--optimization-info",
                                      "-opt-info",
                                      "--optimize",
                                      "-O",
                                      "--dopt",
                                      "-dopt",
                                      "--Ofast-compile",
                                      "-Ofc",
                                      "--ftemplate-backtrace-limit",
                                      "-ftemplate-backtrace-limit",
                                      "--ftemplate-depth",
                                      "-ftemplate-depth",
                                      "--x",
                                      "-x",
                                      "--machine",
                                      "-m",
                                      "--linker-options",
                                      "-Xlinker",
                                      "--archive-options",
                                      "-Xarchive",
                                      "--ptxas-options",
                                      "-Xptxas",
                                      "--nvlink-options",
                                      "-Xnvlink",
                                      "--fatbin-options",
                                      "-Xfatbin",
                                      "-Xcudafe",
                                      "--static-global-template-stub",
                                      "-static-global-template-stub",
                                      "--device-entity-has-hidden-visibility",
                                      "-device-entity-has-hidden-visibility",
                                      "--threads",
                                      "-t",
                                      "--split-compile",
                                      "-split-compile",
                                      "--split-compile-extended",
                                      "-split-compile-extended",
                                      "--fdevice-time-trace",
                                      "-fdevice-time-trace",
                                      "--keep-dir",
                                      "-keep-dir",
                                      "--time",
                                      "-time",
                                      "--run-args",
                                      "-run-args",
                                      "--input-drive-prefix",
                                      "-idp",
                                      "--dependency-drive-prefix",
                                      "-ddp",
                                      "--drive-prefix",
                                      "-dp",
                                      "--dependency-target-name",
                                      "-MT",
                                      "--dependency-output",
                                      "-MF",
                                      "--gpu-architecture",
                                      "-arch",
                                      "--gpu-code",
                                      "-code",
                                      "--generate-code",
                                      "-gencode",
                                      "--relocatable-device-code",
                                      "-rdc",
                                      "--entries",
                                      "-e",
                                      "--maxrregcount",
                                      "-maxrregcount",
                                      "--ftz",
                                      "-ftz",
                                      "--prec-div",
                                      "-prec-div",
                                      "--prec-sqrt",
                                      "-prec-sqrt",
                                      "--fmad",
                                      "-fmad",
                                      "--default-stream",
                                      "-default-stream",
                                      "--diag-error",
                                      "-diag-error",
                                      "--diag-suppress",
                                      "-diag-suppress",
                                      "--diag-warn",
                                      "-diag-warn",
                                      "--host-linker-script",
                                      "-hls",
                                      "--brief-diagnostics",
                                      "-brief-diag",
                                      "--jump-table-density",
                                      "-jtd",
                                      "--device-stack-protector",
                                      "-device-stack-protector",
                                      "--compress-mode",
                                      "-compress-mode",
                                      "--frandom-seed",
                                      "-frandom-seed",
                                      "--sanitize",
                                      "-sanitize",
                                      "--Werror",
                                      "-Werror"};

/// The kept option \p Name spells, if any (exact spellings only).
Kept keptOption(StringRef Name, bool Nvcc) {
  Kept K = StringSwitch<Kept>(Name)
               .Case("-I", Kept::Include)
               .Case("-isystem", Kept::System)
               .Case("-D", Kept::Define)
               .Case("-U", Kept::Undefine)
               .Case("-std", Kept::Std)
               .Case("-include", Kept::PreInclude)
               .Case("-iquote", Kept::IQuote)
               .Case("-idirafter", Kept::IDirAfter)
               .Default(Kept::None);
  if (K != Kept::None || !Nvcc)
    return K;
  return StringSwitch<Kept>(Name)
      .Case("--include-path", Kept::Include)
      .Case("--system-include", Kept::System)
      .Case("--define-macro", Kept::Define)
      .Case("--undefine-macro", Kept::Undefine)
      .Case("--std", Kept::Std)
      .Case("--pre-include", Kept::PreInclude)
      .Default(Kept::None);
}

/// Short options whose value may be joined (`-Idir`), longest first so that
/// `-isystem` is not read as `-i` + `system`.
constexpr std::pair<StringRef, Kept> JoinedForms[] = {
    {"-idirafter", Kept::IDirAfter},
    {"-isystem", Kept::System},
    {"-iquote", Kept::IQuote},
    {"-I", Kept::Include},
    {"-D", Kept::Define},
    {"-U", Kept::Undefine}};

/// CUDA 13's architectures, for `-arch=all` and `-arch=all-major` (nvcc
/// --list-gpu-arch; all-major keeps the oldest, sm_75, whose code the others
/// can run).
constexpr StringRef AllArchs[] = {"sm_75",  "sm_80",  "sm_86",  "sm_87",
                                  "sm_88",  "sm_89",  "sm_90",  "sm_100",
                                  "sm_103", "sm_110", "sm_120", "sm_121"};
constexpr StringRef AllMajorArchs[] = {"sm_75",  "sm_80",  "sm_90",
                                       "sm_100", "sm_110", "sm_120"};

/// clang's name for the virtual architecture in nvcc's \p Name (`sm_75`,
/// `compute_90a`, `sm_100f`); none when it names no architecture.
std::optional<std::string> clangArch(StringRef Name) {
  Name = Name.trim();
  if (!Name.consume_front("sm_") && !Name.consume_front("compute_") &&
      !Name.consume_front("lto_"))
    return std::nullopt;
  // Family-specific code (sm_100f) runs on the family: __CUDA_ARCH__ is the
  // base architecture's.
  Name.consume_back("f");
  StringRef Digits = Name.take_while([](char C) { return isDigit(C); });
  if (Digits.empty() || !(Name == Digits || Name == (Digits + "a").str()))
    return std::nullopt;
  return ("sm_" + Name).str();
}

class Translator {
public:
  Translator(StringRef Directory, StringSaver &Saver)
      : Directory(Directory), Saver(Saver) {}

  /// Translates \p Args; \p Nvcc is false for the host compiler's options
  /// inside -Xcompiler, which have no nvcc spellings and no nvcc values.
  void translate(ArrayRef<StringRef> Args, bool Nvcc, unsigned Depth = 0);

  /// Whether -arch/-gencode named anything (also `native`).
  bool namesArchitecture() const { return NamedArch; }
  /// Whether -arch=native was given.
  bool native() const { return Native; }
  void addArch(StringRef Arch) {
    if (!llvm::is_contained(Archs, Arch))
      Archs.push_back(Arch.str());
  }

  std::vector<std::string> takeResult() {
    if (Rdc)
      Out.push_back("-fgpu-rdc");
    for (const std::string &Arch : Archs)
      Out.push_back("--cuda-gpu-arch=" + Arch);
    return std::move(Out);
  }

private:
  void emit(Kept K, StringRef Value);
  void readOptionsFiles(StringRef Files, unsigned Depth);

  /// The value of -arch/--gpu-architecture.
  void gpuArchitecture(StringRef Value);
  /// The value of -gencode/--generate-code: `arch=compute_75,code=...`.
  void generateCode(StringRef Value);

  StringRef Directory;
  StringSaver &Saver;
  std::vector<std::string> Out;
  std::vector<std::string> Archs; // the virtual architectures, clang's names
  bool Rdc = false;               // -rdc=true or -dc, last spelling wins
  bool NamedArch = false;
  bool Native = false;
};

void Translator::gpuArchitecture(StringRef Value) {
  NamedArch = true;
  if (Value == "native") {
    // The GPUs of the machine that builds, this one when the tool runs in
    // the build (nvcc's default where there is none: translateNvccCommand).
    Native = true;
    for (const std::string &Arch : localGpuArchs())
      addArch(Arch);
    return;
  }
  if (Value == "all") {
    for (StringRef Arch : AllArchs)
      addArch(Arch);
    return;
  }
  if (Value == "all-major") {
    for (StringRef Arch : AllMajorArchs)
      addArch(Arch);
    return;
  }
  SmallVector<StringRef, 4> Names;
  Value.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Name : Names)
    if (std::optional<std::string> Arch = clangArch(Name))
      addArch(*Arch);
}

void Translator::generateCode(StringRef Value) {
  NamedArch = true;
  // arch=compute_75,code=[compute_75,sm_75] or arch=compute_75,code=sm_90:
  // the arch= part names the virtual architecture.
  size_t At = Value.find("arch=");
  if (At == StringRef::npos)
    return;
  StringRef Arch = Value.drop_front(At + 5);
  Arch = Arch.take_until([](char C) { return C == ',' || C == ']'; });
  gpuArchitecture(Arch.trim("[ \"'"));
}

void Translator::emit(Kept K, StringRef Value) {
  switch (K) {
  case Kept::Include:
    Out.push_back(("-I" + Value).str());
    return;
  case Kept::Define:
    Out.push_back(("-D" + Value).str());
    return;
  case Kept::Undefine:
    Out.push_back(("-U" + Value).str());
    return;
  case Kept::Std:
    Out.push_back(("-std=" + Value).str());
    return;
  case Kept::System:
    Out.push_back("-isystem");
    break;
  case Kept::PreInclude:
    Out.push_back("-include");
    break;
  case Kept::IQuote:
    Out.push_back("-iquote");
    break;
  case Kept::IDirAfter:
    Out.push_back("-idirafter");
    break;
  case Kept::None:
    return;
  }
  Out.push_back(Value.str());
}

void Translator::readOptionsFiles(StringRef Files, unsigned Depth) {
  // Options files may name each other; stop runaway recursion.
  if (Depth > 8)
    return;
  SmallVector<StringRef, 4> Names;
  Files.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Name : Names) {
    SmallString<256> Path(Name);
    if (sys::path::is_relative(Path)) {
      Path = Directory;
      sys::path::append(Path, Name);
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
    // An unreadable file loses its options; the parse then reports what is
    // missing, with the file's own diagnostics.
    if (!Buffer)
      continue;
    SmallVector<const char *, 32> Tokens;
    cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
    SmallVector<StringRef, 32> Args(Tokens.begin(), Tokens.end());
    translate(Args, /*Nvcc=*/true, Depth + 1);
  }
}

void Translator::translate(ArrayRef<StringRef> Args, bool Nvcc,
                           unsigned Depth) {
  for (size_t I = 0, E = Args.size(); I < E; ++I) {
    StringRef Arg = Args[I];
    if (!Arg.starts_with("-"))
      continue; // The input (re-added by the caller) or a stray value.

    auto [Name, Value] = Arg.split('=');
    bool HasEquals = Arg.contains('=');
    auto NextValue = [&]() -> std::optional<StringRef> {
      if (I + 1 < E)
        return Args[++I];
      return std::nullopt;
    };

    // Kept options, separate (`-I dir`) or `=` (`--include-path=dir`,
    // `-std=c++17`, nvcc's `-isystem=dir`).
    if (Kept K = keptOption(HasEquals ? Name : Arg, Nvcc); K != Kept::None) {
      if (HasEquals) {
        // gcc reads `-I=dir` as sysroot-relative; only nvcc means dir.
        if (Nvcc || K == Kept::Std)
          emit(K, Value);
      } else if (std::optional<StringRef> V = NextValue()) {
        emit(K, *V);
      }
      continue;
    }
    // Kept options with a joined value; `-DNAME=value` lands here too.
    if (const auto *Joined =
            llvm::find_if(JoinedForms,
                          [&](const auto &Form) {
                            return Arg.starts_with(Form.first) &&
                                   Arg.size() > Form.first.size();
                          });
        Joined != std::end(JoinedForms)) {
      emit(Joined->second, Arg.drop_front(Joined->first.size()));
      continue;
    }
    if (!Nvcc)
      continue;

    // Host compiler options, a comma-separated list.
    if (Name == "-Xcompiler" || Name == "--compiler-options") {
      std::optional<StringRef> List =
          HasEquals ? std::optional<StringRef>(Value) : NextValue();
      if (!List)
        continue;
      SmallVector<StringRef, 8> HostArgs;
      List->split(HostArgs, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      translate(HostArgs, /*Nvcc=*/false, Depth);
      continue;
    }
    if (Name == "--options-file" || Name == "-optf") {
      if (std::optional<StringRef> Files =
              HasEquals ? std::optional<StringRef>(Value) : NextValue())
        readOptionsFiles(*Files, Depth);
      continue;
    }
    // Relocatable device code changes what parses (a kernel launched from
    // device code, an extern __device__ variable): clang's -fgpu-rdc.
    // The last of the spellings wins, as in nvcc.
    if (Name == "-rdc" || Name == "--relocatable-device-code") {
      if (std::optional<StringRef> V =
              HasEquals ? std::optional<StringRef>(Value) : NextValue())
        Rdc = V->equals_insensitive("true");
      continue;
    }
    if (Arg == "-dc" || Arg == "--device-c") { // -rdc=true -c
      Rdc = true;
      continue;
    }
    if (Arg == "-dw" || Arg == "--device-w") { // -rdc=false -c
      Rdc = false;
      continue;
    }
    // What the file is compiled for: the device view compares each, and a
    // pass whose code needs a newer GPU is refused.
    if (Name == "-arch" || Name == "--gpu-architecture") {
      if (std::optional<StringRef> V =
              HasEquals ? std::optional<StringRef>(Value) : NextValue())
        gpuArchitecture(*V);
      continue;
    }
    if (Name == "-gencode" || Name == "--generate-code") {
      if (std::optional<StringRef> V =
              HasEquals ? std::optional<StringRef>(Value) : NextValue())
        generateCode(*V);
      continue;
    }
    // Everything else is dropped, with its separate value.
    if (!HasEquals && llvm::is_contained(ValueOptions, Arg))
      ++I;
  }
}

} // namespace

std::string nvccDefaultArch(StringRef Nvcc) {
  // A database names the same nvcc in every command: read its
  // installation's cuda.h once.
  static std::mutex Lock;
  static StringMap<std::string> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Known.try_emplace(Nvcc);
  if (!New)
    return It->second;
  // The installation an nvcc belongs to: <root>/bin/nvcc, found on PATH
  // when the command names no directory.
  std::string Path = Nvcc.str();
  if (!sys::path::has_parent_path(Nvcc))
    if (ErrorOr<std::string> Found = sys::findProgramByName(Nvcc))
      Path = *Found;
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    Path = std::string(Real);
  std::optional<unsigned> Version =
      cudaVersion(sys::path::parent_path(sys::path::parent_path(Path)));
  // nvcc's default was sm_52 from CUDA 11 to 12; CUDA 13, the toolkit the
  // tool is built for, compiles for sm_75.
  It->second = Version && *Version < 13000 ? "sm_52" : "sm_75";
  return It->second;
}

std::vector<std::string> gpuArchsOfComputeCaps(StringRef Text) {
  std::vector<std::string> Archs;
  SmallVector<StringRef, 4> Lines;
  Text.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    auto [Major, Minor] = Line.trim().split('.');
    unsigned M = 0, N = 0;
    if (Major.getAsInteger(10, M) || Minor.getAsInteger(10, N) || M == 0)
      continue;
    std::string Arch = "sm_" + utostr(M) + utostr(N);
    if (!llvm::is_contained(Archs, Arch))
      Archs.push_back(Arch);
  }
  return Archs;
}

std::vector<std::string> localGpuArchs() {
  static const std::vector<std::string> Archs = [] {
    ErrorOr<std::string> Smi = sys::findProgramByName("nvidia-smi");
    if (!Smi)
      return std::vector<std::string>();
    SmallString<128> Output;
    if (sys::fs::createTemporaryFile("decoupler-gpus", "txt", Output))
      return std::vector<std::string>();
    const std::optional<StringRef> Redirects[] = {
        StringRef(""), StringRef(Output), StringRef("")};
    const int Status = sys::ExecuteAndWait(
        *Smi, {*Smi, "--query-gpu=compute_cap", "--format=csv,noheader"},
        std::nullopt, Redirects, /*SecondsToWait=*/20);
    std::vector<std::string> Found;
    if (Status == 0)
      if (ErrorOr<std::unique_ptr<MemoryBuffer>> Text =
              MemoryBuffer::getFile(Output))
        Found = gpuArchsOfComputeCaps((*Text)->getBuffer());
    sys::fs::remove(Output);
    return Found;
  }();
  return Archs;
}

bool isNvccCommand(ArrayRef<std::string> CommandLine) {
  if (CommandLine.empty())
    return false;
  return sys::path::stem(CommandLine.front()).equals_insensitive("nvcc");
}

CompileCommand translateNvccCommand(const CompileCommand &Command) {
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  Translator T(Command.Directory, Saver);
  SmallVector<StringRef, 32> Args;
  for (const std::string &Arg : ArrayRef(Command.CommandLine).drop_front())
    Args.push_back(Arg);
  T.translate(Args, /*Nvcc=*/true);
  // nvcc's default, also for -arch=native where it finds no GPU.
  if (!T.namesArchitecture() || (T.native() && localGpuArchs().empty()))
    T.addArch(nvccDefaultArch(Command.CommandLine.front()));

  std::vector<std::string> CommandLine{"clang++"};
  for (std::string &Arg : T.takeResult())
    CommandLine.push_back(std::move(Arg));
  CommandLine.push_back(Command.Filename);
  CompileCommand Result(Command.Directory, Command.Filename,
                        std::move(CommandLine), Command.Output);
  Result.Heuristic = Command.Heuristic;
  return Result;
}

} // namespace decoupler::tool
