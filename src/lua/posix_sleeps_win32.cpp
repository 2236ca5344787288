// The POSIX sleeps that sysbench's own scripts call through the FFI
// (`ffi.cdef "int usleep(unsigned int);"`, then `ffi.C.usleep(1000)`), which
// Windows' C runtime does not have. loadcell.exe exports them, as it exports
// the sb_* functions, from the executable, where LuaJIT's ffi.C looks first;
// CMakeLists.txt asks the linker for them, since nothing in loadcell calls
// them. The Linux build has the C library's own.

#include <windows.h>

#include <cstdint>

// Sleeps at least `microseconds` (Windows sleeps in whole milliseconds, so
// up to a millisecond more, and the timer's granularity beside); 0.
extern "C" __declspec(dllexport) int usleep(unsigned int microseconds) {
  const uint64_t ms = (uint64_t{microseconds} + 999) / 1000;
  Sleep(static_cast<DWORD>(ms));
  return 0;
}

// Sleeps `seconds`; 0 (no signal interrupts it).
extern "C" __declspec(dllexport) unsigned int sleep(unsigned int seconds) {
  Sleep(static_cast<DWORD>(uint64_t{seconds} * 1000));
  return 0;
}
