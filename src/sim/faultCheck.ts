import type { SimFaults } from './faultTypes.js'

/**
 * Checks faults before they take effect, so a typo fails at once with a
 * RangeError naming the field rather than silently injecting nothing.
 */
export function checkFaults(faults: SimFaults): SimFaults {
  const integers: [string, number | undefined, number][] = [
    ['latencyMs', faults.latencyMs, 0],
    ['rateLimit.every', faults.rateLimit?.every, 1],
    ['rateLimitPerSecond.limit', faults.rateLimitPerSecond?.limit, 1],
    ['serverErrors.every', faults.serverErrors?.every, 1],
    ['hugeErrorBody.every', faults.hugeErrorBody?.every, 1],
    ['resetBeforeCreate.every', faults.resetBeforeCreate?.every, 1],
    ['resetAfterCreate.every', faults.resetAfterCreate?.every, 1],
    ['garbledCreateReply.every', faults.garbledCreateReply?.every, 1],
    ['badPollReply.every', faults.badPollReply?.every, 1],
    ['resetStreamAfter', faults.resetStreamAfter, 0],
    ['malformedFrameAt', faults.malformedFrameAt, 1],
    ['closeMidEventAt', faults.closeMidEventAt, 1],
    ['pingForever.everyMs', faults.pingForever?.everyMs, 1],
    ['drip.everyMs', faults.drip?.everyMs, 0],
    ['dropDownloadAt.bytes', faults.dropDownloadAt?.bytes, 0],
  ]
  for (const [name, value, min] of integers) {
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) fail(name, `an integer of at least ${min}`, value)
  }
  // Sizes may be Infinity: the body then never ends.
  for (const [name, value] of [['hugeReply.bytes', faults.hugeReply?.bytes], ['hugeErrorBody.bytes', faults.hugeErrorBody?.bytes]] as const) {
    if (value !== undefined && !(value === Infinity || (Number.isInteger(value) && value >= 0))) fail(name, 'an integer of at least 0, or Infinity', value)
  }
  const status = faults.serverErrors?.status
  if (status !== undefined && !(Number.isInteger(status) && status >= 500 && status <= 599)) fail('serverErrors.status', 'a 5xx status', status)
  const code = faults.rateLimit?.code
  if (code !== undefined && code !== 'rate_limit_exceeded' && code !== 'insufficient_quota') fail('rateLimit.code', "'rate_limit_exceeded' or 'insufficient_quota'", code)
  const kind = faults.badPollReply?.kind
  if (faults.badPollReply && !['not-json', 'wrong-shape', 'other-task', 'html', 'backwards'].includes(kind as string)) {
    fail('badPollReply.kind', "one of 'not-json', 'wrong-shape', 'other-task', 'html', 'backwards'", kind)
  }
  const rate = faults.chaos?.rate
  if (rate !== undefined && !(typeof rate === 'number' && rate >= 0 && rate <= 1)) fail('chaos.rate', 'a number from 0 to 1', rate)
  const seed = faults.chaos?.seed
  if (seed !== undefined && !Number.isInteger(seed)) fail('chaos.seed', 'an integer', seed)
  return { ...faults }
}

function fail(name: string, rule: string, value: unknown): never {
  throw new RangeError(`faults.${name} must be ${rule} (got ${String(value)})`)
}
