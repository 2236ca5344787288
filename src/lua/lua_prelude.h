#pragma once
// The part of the sysbench API written in Lua (constants, hooks table,
// report functions, histogram), run in every interpreter before the script.

namespace loadcell {

extern const char kLuaPrelude[];

}  // namespace loadcell
