#include "cluster/mpi_mpich.h"

#include <cstdint>

#include "os/dynamic_lib.h"

namespace loadcell {
namespace {

// The MPICH ABI, as its mpi.h documents it (the build has only Open MPI's
// header): every handle is an int, the predefined ones fixed values.
namespace mpich {
using Handle = int;
struct Status {
  int count_lo;
  int count_hi_and_cancelled;
  int source;
  int tag;
  int error;
};
constexpr Handle kCommWorld = 0x44000000;
constexpr Handle kByte = 0x4c00010d;
constexpr Handle kInt = 0x4c000405;
constexpr Handle kOpMin = 0x58000002;
constexpr int kAnySource = -2;
constexpr intptr_t kStatusIgnore = 1;  // (MPI_Status*)1
constexpr intptr_t kInPlace = -1;      // (void*)-1
}  // namespace mpich

// In the Open MPI typed table an MPICH handle travels as a pointer whose
// value is the int: never dereferenced, only turned back into the int.
template <typename Pointer>
Pointer HandleToPointer(mpich::Handle h) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): the pointer only carries the int
  return reinterpret_cast<Pointer>(static_cast<intptr_t>(h));
}
template <typename Pointer>
mpich::Handle PointerToHandle(Pointer p) {
  return static_cast<mpich::Handle>(reinterpret_cast<intptr_t>(p));
}

template <typename Pointer>
Pointer AddressOf(intptr_t value) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): MPICH's sentinel addresses
  return reinterpret_cast<Pointer>(value);
}

// Arg<T>: one argument of Open MPI type T, turned into its MPICH type
// (Arg<T>::Type) by Pass(); what MPICH wrote back is turned into T's form
// when the Arg ends, after the call (a temporary of the call's expression).
// Types not listed here have no specialisation: a function taking one does
// not compile.
template <typename T>
struct Arg;

// Types the two ABIs share: passed unchanged.
template <typename T>
struct SameArg {
  using Type = T;
  explicit SameArg(T v) : value(v) {}
  T Pass() const { return value; }
  T value;
};
template <>
struct Arg<int> : SameArg<int> {
  using SameArg::SameArg;
};
template <>
struct Arg<int*> : SameArg<int*> {
  using SameArg::SameArg;
};
template <>
struct Arg<const int*> : SameArg<const int*> {
  using SameArg::SameArg;
};
template <>
struct Arg<void*> : SameArg<void*> {
  using SameArg::SameArg;
};
template <>
struct Arg<char***> : SameArg<char***> {
  using SameArg::SameArg;
};

// A send buffer: Open MPI's MPI_IN_PLACE ((void*)1) is MPICH's (void*)-1.
template <>
struct Arg<const void*> {
  using Type = const void*;
  explicit Arg(const void* v) : value(v) {}
  const void* Pass() const {
    return value == MPI_IN_PLACE ? AddressOf<const void*>(mpich::kInPlace) : value;
  }
  const void* value;
};

template <typename H>
struct HandleArg {
  using Type = mpich::Handle;
  explicit HandleArg(H h) : value(PointerToHandle(h)) {}
  mpich::Handle Pass() const { return value; }
  mpich::Handle value;
};
template <>
struct Arg<MPI_Comm> : HandleArg<MPI_Comm> {
  using HandleArg::HandleArg;
};
template <>
struct Arg<MPI_Datatype> : HandleArg<MPI_Datatype> {
  using HandleArg::HandleArg;
};
template <>
struct Arg<MPI_Op> : HandleArg<MPI_Op> {
  using HandleArg::HandleArg;
};

// A request, read and written (MPI_Isend writes it, MPI_Test reads it and
// sets it to MPI_REQUEST_NULL when done).
template <>
struct Arg<MPI_Request*> {
  using Type = mpich::Handle*;
  explicit Arg(MPI_Request* r) : out(r), value(r != nullptr ? PointerToHandle(*r) : 0) {}
  Arg(const Arg&) = delete;
  Arg& operator=(const Arg&) = delete;
  ~Arg() {
    if (out != nullptr) *out = HandleToPointer<MPI_Request>(value);
  }
  mpich::Handle* Pass() { return out != nullptr ? &value : nullptr; }
  MPI_Request* out;
  mpich::Handle value;
};

// A status: Open MPI's MPI_STATUS_IGNORE (nullptr) is MPICH's
// (MPI_Status*)1. MPICH's count words ride in Open MPI's private count
// fields, so that a status MPICH filled can go back to it (MPI_Get_count).
void ToOpenMpi(const mpich::Status& in, MPI_Status& out) {
  out.MPI_SOURCE = in.source;
  out.MPI_TAG = in.tag;
  out.MPI_ERROR = in.error;
  out._cancelled = in.count_hi_and_cancelled;
  out._ucount = static_cast<uint32_t>(in.count_lo);
}
mpich::Status ToMpich(const MPI_Status& in) {
  return {static_cast<int>(static_cast<uint32_t>(in._ucount)), in._cancelled, in.MPI_SOURCE,
          in.MPI_TAG, in.MPI_ERROR};
}

template <>
struct Arg<MPI_Status*> {
  using Type = mpich::Status*;
  explicit Arg(MPI_Status* s) : out(s), value(s != nullptr ? ToMpich(*s) : mpich::Status{}) {}
  Arg(const Arg&) = delete;
  Arg& operator=(const Arg&) = delete;
  ~Arg() {
    if (out != nullptr) ToOpenMpi(value, *out);
  }
  mpich::Status* Pass() {
    return out != nullptr ? &value : AddressOf<mpich::Status*>(mpich::kStatusIgnore);
  }
  MPI_Status* out;
  mpich::Status value;
};
template <>
struct Arg<const MPI_Status*> {
  using Type = const mpich::Status*;
  explicit Arg(const MPI_Status* s)
      : ignore(s == nullptr), value(ignore ? mpich::Status{} : ToMpich(*s)) {}
  const mpich::Status* Pass() const {
    return ignore ? AddressOf<const mpich::Status*>(mpich::kStatusIgnore) : &value;
  }
  bool ignore;
  mpich::Status value;
};

// The MPICH function type that stands for the Open MPI function type F.
template <typename F>
struct MpichType;
template <typename... A>
struct MpichType<int (*)(A...)> {
  using Type = int (*)(typename Arg<A>::Type...);
};

// The MPICH library's own functions, one pointer per function of the table.
// NOLINTNEXTLINE(bugprone-macro-parentheses): `name` is the identifier declared
#define LOADCELL_DECLARE_MPICH_(name) MpichType<decltype(&::name)>::Type name = nullptr;
struct MpichFunctions {
  LOADCELL_MPI_FUNCTIONS(LOADCELL_DECLARE_MPICH_)
};
#undef LOADCELL_DECLARE_MPICH_

// Filled once, by BindMpichAbi (under the loader's static initialisation),
// before any adapter runs; read-only after.
MpichFunctions g_mpich;

// Adapter<F, kMember>::Call: a function of the Open MPI type F that turns
// its arguments into MPICH's, calls g_mpich.*kMember and turns back what it
// wrote.
template <typename F, auto kMember>
struct Adapter;
template <auto kMember, typename... A>
struct Adapter<int (*)(A...), kMember> {
  static int Call(A... args) { return (g_mpich.*kMember)(Arg<A>(args).Pass()...); }
};

}  // namespace

void BindMpichAbi(void* lib, const char* soname, MpiApi& api, Status& status) {
#define LOADCELL_BIND_MPICH_(name)                \
  Bind(lib, soname, #name, g_mpich.name, status); \
  api.name = &Adapter<decltype(&::name), &MpichFunctions::name>::Call;
  LOADCELL_MPI_FUNCTIONS(LOADCELL_BIND_MPICH_)
#undef LOADCELL_BIND_MPICH_
  api.comm_world = HandleToPointer<MPI_Comm>(mpich::kCommWorld);
  api.byte = HandleToPointer<MPI_Datatype>(mpich::kByte);
  api.int_type = HandleToPointer<MPI_Datatype>(mpich::kInt);
  api.op_min = HandleToPointer<MPI_Op>(mpich::kOpMin);
  api.any_source = mpich::kAnySource;
}

}  // namespace loadcell
