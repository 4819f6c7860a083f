/**
 * The shared budget's Lua scripts: each runs atomically in Redis, so no two processes can take
 * the same slot. Time is Redis's own (`TIME`), one clock for every machine, unless the caller
 * passes one (tests on an injected clock).
 *
 * Why a sliding window of slots and not GCRA: GCRA keeps one timestamp and meters requests
 * from their start, so it cannot hold a slot until `perMs` after an answer that has not come
 * yet; a request that leaves late would bunch up at the venue with the next ones (measured
 * 22-23 in one second against a limit of 20 for a window of starts). A sorted set of slots,
 * one member per request, scored with the time it frees, keeps the local rule exactly: a
 * member is added with a lease (`perMs` + margin, renewed while the request is in flight) and
 * rescored to `answer + perMs` when the answer comes. A killed process renews nothing, so its
 * slots free within `perMs` + margin. The set holds at most `requests` members.
 */

const NOW = `
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * KEYS: slots (zset), pause (string: paused until, ms), orders-waiting (hash: process token →
 * until, ms).
 * ARGV: now ('' = TIME), limit, leaseMs, member prefix, count, all-or-nothing (1/0), kind
 * ('order' | 'lookup' | 'poll'), orders-waiting marker ms, process token, reserve horizon ms.
 * Returns {granted, waitMs, paused (1/0), delay of each granted slot…}; granted members are
 * `prefix:1` … `prefix:granted`. Orders the window cannot take now may reserve slots that free
 * within the horizon: the member held until S is replaced by the caller's, leased from S, and
 * its delay is S - now. The slot stays taken without a gap (held until S, then the caller's
 * from S), and the caller sends at S by its own timer, with no second round trip then.
 * Lookups and polls yield while any process has orders waiting: an order call that leaves
 * orders waiting marks its process (for marker ms, renewed by its next try), one that grants
 * them all clears the mark at once (a mark left to lapse would idle every slot freed meanwhile).
 */
export const ACQUIRE_LUA = `${NOW}
local pausedUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if pausedUntil > now then return {0, pausedUntil - now, 1} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local limit = tonumber(ARGV[2])
local lease = tonumber(ARGV[3])
local count = tonumber(ARGV[5])
local free = limit - redis.call('ZCARD', KEYS[1])
if ARGV[7] ~= 'order' then
  for _, untilMs in ipairs(redis.call('HVALS', KEYS[3])) do
    if tonumber(untilMs) > now then
      free = 0
      break
    end
  end
end
local grant = math.min(math.max(free, 0), count)
if grant < count and ARGV[6] == '1' then grant = 0 end
local delays = {}
for i = 1, grant do
  redis.call('ZADD', KEYS[1], now + lease, ARGV[4] .. ':' .. i)
  delays[i] = 0
end
local horizon = tonumber(ARGV[10] or '0')
if ARGV[7] == 'order' and grant < count and ARGV[6] ~= '1' and horizon > 0 then
  local soon = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now + horizon,
    'WITHSCORES', 'LIMIT', 0, count - grant)
  for j = 1, #soon, 2 do
    local at = tonumber(soon[j + 1])
    grant = grant + 1
    redis.call('ZREM', KEYS[1], soon[j])
    redis.call('ZADD', KEYS[1], at + lease, ARGV[4] .. ':' .. grant)
    delays[grant] = at - now
  end
end
if grant > 0 then redis.call('PEXPIRE', KEYS[1], lease + 60000) end
if ARGV[7] == 'order' then
  if grant < count then
    local marker = tonumber(ARGV[8])
    redis.call('HSET', KEYS[3], ARGV[9], now + marker)
    redis.call('PEXPIRE', KEYS[3], marker)
  else
    redis.call('HDEL', KEYS[3], ARGV[9])
  end
end
if grant > 0 then
  local reply = {grant, 0, 0}
  for i = 1, grant do reply[3 + i] = delays[i] end
  return reply
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local wait = 1
if first[2] then wait = math.max(1, tonumber(first[2]) - now) end
return {0, wait, 0}
`;

/**
 * Holds members until now + ms each (an answer came: `perMs` + guard; a lease renewed; slots
 * carried back from the fallback window). A member that lapsed is added again: it counts.
 * KEYS: slots. ARGV: now ('' = TIME), then member, ms pairs. Returns now.
 */
export const HOLD_LUA = `${NOW}
local longest = 0
for i = 2, #ARGV, 2 do
  local ms = tonumber(ARGV[i + 1])
  redis.call('ZADD', KEYS[1], now + ms, ARGV[i])
  if ms > longest then longest = ms end
end
if redis.call('PTTL', KEYS[1]) < longest + 60000 then
  redis.call('PEXPIRE', KEYS[1], longest + 60000)
end
return now
`;

/**
 * A 429's Retry-After for every process: no slot is granted until then (only ever extended).
 * KEYS: pause. ARGV: now ('' = TIME), ms. Returns the pause's end.
 */
export const PAUSE_LUA = `${NOW}
local ms = tonumber(ARGV[2])
local untilMs = now + ms
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then
  redis.call('SET', KEYS[1], untilMs, 'PX', ms)
  return untilMs
end
return current
`;
