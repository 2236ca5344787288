-- Interval reports through sysbench.report_csv.
function event() end
sysbench.hooks.report_intermediate = function(stat) sysbench.report_csv(stat) end
