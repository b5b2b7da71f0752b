import type { PollDelayOptions } from '../policy/defaults.js'
import { createGateway, type Gateway } from '../gateway.js'
import { keyStaysLocal } from '../transport/loopbackName.js'
import { startSimulator } from '../sim/index.js'
import { UsageError } from './usageError.js'

/** The embedded simulator renders in about 1.5 s: poll at its pace rather than a real render's, so every step shows. */
export const SIMULATOR_POLL_MS = 200
const SIMULATOR_POLL = { initialDelayMs: SIMULATOR_POLL_MS, factor: 1.5, maxDelayMs: 1_000 }

/** A gateway to talk to, and how to let it go. */
export interface Connection {
  readonly gateway: Gateway
  /** The gateway is a simulator inside this process: it, its tasks and its URLs end when rxgate exits. */
  readonly embedded: boolean
  readonly close: () => Promise<void>
}

/** What decides the gateway besides the environment. */
export interface ConnectOptions {
  /** `--sim`: use an embedded simulator whatever the environment says. */
  readonly sim?: boolean
  /** `--poll-ms`: poll tasks every this many ms. */
  readonly pollMs?: number
}

/**
 * Connects to the gateway named by `GATEWAY_BASE_URL` and `GATEWAY_API_KEY`.
 * With neither set, or with `--sim`, starts an embedded simulator on
 * 127.0.0.1 and says so on stderr. Only one of the two set, or a base URL
 * that is not an http(s) URL, is bad input ({@link UsageError}): falling
 * back to a simulator there would print fake results as if they were real.
 * So is an `http://` base URL to a host other than this machine, unless
 * `GATEWAY_ALLOW_HTTP=1`: the key would cross the network in clear text.
 */
export async function connect(env: NodeJS.ProcessEnv, log: (line: string) => void, options: ConnectOptions = {}): Promise<Connection> {
  const baseUrl = env.GATEWAY_BASE_URL?.trim()
  const apiKey = env.GATEWAY_API_KEY?.trim()
  const poll: PollDelayOptions | undefined = options.pollMs === undefined ? undefined : { initialDelayMs: options.pollMs, factor: 1, maxDelayMs: options.pollMs, jitter: 0 }
  if (!options.sim) {
    if (baseUrl && !apiKey) throw new UsageError('GATEWAY_BASE_URL is set but GATEWAY_API_KEY is empty or unset; set the key, or pass --sim to use an embedded simulator')
    if (apiKey && !baseUrl) throw new UsageError('GATEWAY_API_KEY is set but GATEWAY_BASE_URL is empty or unset; set the base URL, or pass --sim to use an embedded simulator')
    if (baseUrl && apiKey) {
      if (!isHttpUrl(baseUrl)) throw new UsageError(`GATEWAY_BASE_URL must be an http:// or https:// URL (got ${JSON.stringify(baseUrl)})`)
      // Checked here as well as by createClient, so that the refusal names the variable a user of the command line sets.
      const allowInsecureHttp = checkPlainHttp(new URL(baseUrl), env.GATEWAY_ALLOW_HTTP)
      return { gateway: createGateway({ baseUrl, apiKey, ...(allowInsecureHttp ? { allowInsecureHttp } : {}), ...(poll ? { taskPoll: poll } : {}) }), embedded: false, close: async () => {} }
    }
  }
  const sim = await startSimulator()
  log(`rxgate: using an embedded gateway simulator at ${sim.url}${options.sim ? ' (--sim)' : ' (GATEWAY_BASE_URL and GATEWAY_API_KEY are not set)'}.`)
  const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey, taskPoll: poll ?? SIMULATOR_POLL })
  return { gateway, embedded: true, close: () => sim.close() }
}

/**
 * Refuses a key sent in clear text over the network: `http://` to a host
 * that is not this machine, unless `GATEWAY_ALLOW_HTTP=1`. True when that
 * variable allows it (the client is then made with `allowInsecureHttp`).
 */
function checkPlainHttp(url: URL, allow: string | undefined): boolean {
  const allowed = allow?.trim() ?? ''
  if (allowed !== '' && allowed !== '0' && allowed !== '1') throw new UsageError(`GATEWAY_ALLOW_HTTP must be 0, 1 or unset (got ${JSON.stringify(allow)})`)
  if (keyStaysLocal(url)) return false
  if (allowed === '1') return true
  throw new UsageError(
    `GATEWAY_BASE_URL is http:// to ${url.hostname}, not this machine: the key would cross the network in clear text; use https://, or set GATEWAY_ALLOW_HTTP=1 to send it anyway`,
  )
}

/** Whether `value` is an absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
