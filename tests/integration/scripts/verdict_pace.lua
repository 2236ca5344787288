-- Events paced to make the verdict's interval and thread checks find what
-- they look for, by event count rather than by clock, so that a loaded
-- machine changes the figures but not the finding
-- (verdict_checks_posix_test.cpp). --shape:
--   slowing  each event sleeps longer than the last (0.2 ms, then 40 us
--            more each time): the rate falls all run long (steady-state)
--   fast     the first 1000 events of each thread do nothing, the rest
--            sleep 2 ms: the first interval far above the others (warm-up)
--   unfair   thread 0 sleeps 20 ms per event, the others 0.5 ms (fairness)
--   stalls   2 ms per event, but events 10, 60 and 110 of each thread
--            sleep 100 ms: the events after them start late (rate)
--   one_busy thread 1's events do nothing (it runs event after event, on
--            the CPU all the time), the others sleep 20 ms (client-cpu)

ffi.cdef[[int usleep(unsigned int usec);]]

sysbench.cmdline.options = {shape = {"slowing, fast, unfair, stalls or one_busy", "slowing"}}

local done = 0
local tid = 0

function thread_init(thread_id)
  tid = thread_id
end

function event()
  local shape = sysbench.opt.shape
  local us
  if shape == "slowing" then
    us = 200 + 40 * done
  elseif shape == "fast" then
    us = done < 1000 and 0 or 2000
  elseif shape == "unfair" then
    us = tid == 0 and 20000 or 500
  elseif shape == "one_busy" then
    us = tid == 1 and 0 or 20000
  elseif shape == "stalls" then
    us = (done == 10 or done == 60 or done == 110) and 100000 or 2000
  else
    error("unknown --shape " .. shape)
  end
  done = done + 1
  if us > 0 then ffi.C.usleep(us) end
end
