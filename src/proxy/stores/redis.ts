import type { BucketCheck, LimitStore } from '../core/limits.js';
import { lifetimeMs } from '../core/limits.js';
import { isPersonConversation, type PeopleStore } from '../core/people.js';
import { IDENTITY } from '../../protocol/contract.js';

/**
 * The one Redis call the store needs: run a Lua script over keys and arguments. Upstash's REST client has exactly
 * this shape; other clients adapt in one line.
 *
 * @example
 * // node-redis
 * createRedisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) });
 * // ioredis
 * createRedisStore({ eval: (script, keys, args) => redis.eval(script, keys.length, ...keys, ...args) });
 */
export interface RedisEval {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/**
 * All or nothing, atomically (Redis runs one script at a time): refill every bucket to `now`, refuse with the
 * longest wait when any lacks a whole token, else take one from each and let untouched buckets expire once full.
 * ARGV: now, then capacity, refill per ms and lifetime (ms) for each key. Same arithmetic as `core/limits.ts`.
 */
const TAKE = `
local now = tonumber(ARGV[1])
local levels = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[i * 3 - 1])
  local rate = tonumber(ARGV[i * 3])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = capacity
  if state[1] then
    tokens = math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * rate)
  end
  levels[i] = tokens
  if tokens < 1 then wait = math.max(wait, math.ceil((1 - tokens) / rate)) end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'tokens', tostring(levels[i] - 1), 'at', tostring(now))
  redis.call('PEXPIRE', key, tonumber(ARGV[i * 3 + 1]))
end
return 0
`;

/** Marks KEYS[1] used for ARGV[1] ms: 1 when it was not marked yet, else 0. */
const CLAIM = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', tonumber(ARGV[1])) then return 1 end
return 0
`;

/**
 * A limit store in Redis, shared by every proxy instance that uses the same Redis: they enforce one limit between
 * them. Runs anywhere the client does (no `node:` imports), Upstash included on Cloudflare Workers.
 */
export function createRedisStore(redis: RedisEval, options: { prefix?: string } = {}): LimitStore {
  const prefix = options.prefix ?? 'askbox:limit:';
  return {
    async claim(key, ttlMs) {
      const answer = await redis.eval(CLAIM, [`${prefix}claim:${key}`], [String(Math.max(1, Math.ceil(ttlMs)))]);
      const claimed = typeof answer === 'string' ? Number(answer) : answer;
      if (claimed !== 0 && claimed !== 1)
        throw new Error(`Redis limit store: unexpected answer ${JSON.stringify(answer)}`);
      return claimed === 1;
    },
    async take(checks: readonly BucketCheck[], now: number) {
      if (!checks.length) return 0;
      const args = [
        String(now),
        ...checks.flatMap((c) => [String(c.capacity), String(c.refillPerSecond / 1000), String(lifetimeMs(c))]),
      ];
      const answer = await redis.eval(
        TAKE,
        checks.map((c) => prefix + c.key),
        args,
      );
      const wait = typeof answer === 'string' ? Number(answer) : answer;
      if (typeof wait !== 'number' || !Number.isFinite(wait) || wait < 0)
        throw new Error(`Redis limit store: unexpected answer ${JSON.stringify(answer)}`);
      return wait;
    },
  };
}

/** Drops every entry of the list KEYS[1] whose id is ARGV[1] (entries are JSON objects). */
const DROP = `
for _, item in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local ok, entry = pcall(cjson.decode, item)
  if not ok or type(entry) ~= 'table' or entry.id == ARGV[1] then redis.call('LREM', KEYS[1], 0, item) end
end
`;

/** Puts ARGV[2] (the entry of id ARGV[1]) first in the list KEYS[1], once; keeps ARGV[3] entries for ARGV[4] ms. */
const ADD = `${DROP}
redis.call('LPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
`;

const REMOVE = `${DROP}
return 1
`;

const LIST = `return redis.call('LRANGE', KEYS[1], 0, -1)`;

/** Checks the answer of ADD or REMOVE. */
function done(answer: unknown): void {
  if (answer !== 1 && answer !== '1')
    throw new Error(`Redis people store: unexpected answer ${JSON.stringify(answer)}`);
}

/**
 * People's conversation lists in Redis, shared by every proxy instance on the same Redis: per person one list
 * (newest first, capped at IDENTITY.conversationsMax) that expires a grant lifetime after its last addition.
 */
export function createRedisPeopleStore(redis: RedisEval, options: { prefix?: string } = {}): PeopleStore {
  const prefix = options.prefix ?? 'askbox:people:';
  return {
    async list(person) {
      const answer = await redis.eval(LIST, [prefix + person], []);
      if (!Array.isArray(answer)) throw new Error('Redis people store: unexpected answer to a list');
      return answer
        .map((item) => (typeof item === 'string' ? (JSON.parse(item) as unknown) : null))
        .filter(isPersonConversation);
    },
    async add({ person, conversation, ttlMs }) {
      const { id, bot_id, name, created_at } = conversation;
      const args = [id, JSON.stringify({ id, bot_id, name, created_at })];
      done(await redis.eval(ADD, [prefix + person], [...args, String(IDENTITY.conversationsMax), String(ttlMs)]));
    },
    async remove(person, id) {
      done(await redis.eval(REMOVE, [prefix + person], [id]));
    },
  };
}
