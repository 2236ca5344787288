-- done() prints a line: sysbench runs it after the end report.
function event() end
function done() print("done() ran") end
