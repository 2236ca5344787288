-- Prints the time limit a script sees.
function event() end
function init() print("sysbench.opt.time=" .. tostring(sysbench.opt.time)) end
