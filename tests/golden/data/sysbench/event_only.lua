-- A script that never touches a database: sysbench prints no database
-- header and no SQL statistics for it.
function event() end
