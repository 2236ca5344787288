# The third-party code of the Windows build, prepared by
# scripts/windows-third-party from Debian's packages into the build folder
# (never committed): fmt (header-only) and nlohmann-json headers, SQLite's
# amalgamation, GoogleTest's source, LuaJIT cross-built as a static library.
# Defines the targets the Linux build gets from find_package/pkg-config:
# fmt::fmt, SQLite::SQLite3, GTest::gtest/gtest_main/gmock, LuaJIT::LuaJIT.
set(LOADCELL_THIRD_PARTY_DIR ${CMAKE_BINARY_DIR}/third-party)
# LuaJIT is built with its own Makefile by the C compiler of this toolchain
# (its prefix, without gcc: LuaJIT's CROSS=), only with LOADCELL_WITH_LUA.
string(REGEX REPLACE "gcc(-posix|-win32)?$" "" loadcell_cross_prefix "${CMAKE_C_COMPILER}")
if(LOADCELL_WITH_LUA)
  set(loadcell_want_luajit ON)
else()
  set(loadcell_want_luajit OFF)
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env WINDOWS_CROSS_PREFIX=${loadcell_cross_prefix}
    WINDOWS_LUAJIT=${loadcell_want_luajit}
    ${CMAKE_SOURCE_DIR}/scripts/windows-third-party ${LOADCELL_THIRD_PARTY_DIR}
  RESULT_VARIABLE third_party_rc)
if(NOT third_party_rc EQUAL 0)
  message(FATAL_ERROR "scripts/windows-third-party failed (run scripts/install-deps first)")
endif()

# Only the fmt/ and nlohmann/ folders, never all of /usr/include.
add_library(loadcell_third_party_headers INTERFACE)
target_include_directories(loadcell_third_party_headers SYSTEM INTERFACE
  ${LOADCELL_THIRD_PARTY_DIR}/include)
add_library(fmt::fmt ALIAS loadcell_third_party_headers)
target_compile_definitions(loadcell_third_party_headers INTERFACE FMT_HEADER_ONLY)

add_library(loadcell_sqlite3 STATIC ${LOADCELL_THIRD_PARTY_DIR}/sqlite/sqlite3.c)
set_source_files_properties(${LOADCELL_THIRD_PARTY_DIR}/sqlite/sqlite3.c PROPERTIES LANGUAGE C)
target_compile_options(loadcell_sqlite3 PRIVATE -w)
target_compile_definitions(loadcell_sqlite3 PUBLIC SQLITE_THREADSAFE=1
  PRIVATE SQLITE_OMIT_LOAD_EXTENSION)
target_include_directories(loadcell_sqlite3 SYSTEM PUBLIC ${LOADCELL_THIRD_PARTY_DIR}/sqlite)
add_library(SQLite::SQLite3 ALIAS loadcell_sqlite3)

if(LOADCELL_WITH_LUA)
  add_library(LuaJIT::LuaJIT STATIC IMPORTED)
  set_target_properties(LuaJIT::LuaJIT PROPERTIES
    IMPORTED_LOCATION ${LOADCELL_THIRD_PARTY_DIR}/luajit/lib/libluajit.a
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${LOADCELL_THIRD_PARTY_DIR}/luajit/include
    INTERFACE_INCLUDE_DIRECTORIES ${LOADCELL_THIRD_PARTY_DIR}/luajit/include)
endif()

if(LOADCELL_TESTS)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(gtest_disable_pthreads OFF CACHE BOOL "" FORCE)
  add_subdirectory(${LOADCELL_THIRD_PARTY_DIR}/googletest ${CMAKE_BINARY_DIR}/googletest
    EXCLUDE_FROM_ALL SYSTEM)
endif()
