import { createGateway, type Gateway } from '../gateway.js'
import { startSimulator } from '../sim/index.js'

const SIMULATOR_POLL = { initialDelayMs: 200, factor: 1.5, maxDelayMs: 1_000 }

/** A gateway to talk to, and how to let it go. */
export interface Connection {
  readonly gateway: Gateway
  readonly close: () => Promise<void>
}

/**
 * Connects to the gateway named by `GATEWAY_BASE_URL` and `GATEWAY_API_KEY`;
 * without them, starts an embedded simulator on 127.0.0.1 and says so on stderr.
 */
export async function connect(env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<Connection> {
  const baseUrl = env.GATEWAY_BASE_URL
  const apiKey = env.GATEWAY_API_KEY
  if (baseUrl && apiKey) return { gateway: createGateway({ baseUrl, apiKey }), close: async () => {} }
  if (baseUrl || apiKey) log('rxgate: set both GATEWAY_BASE_URL and GATEWAY_API_KEY to use a real gateway; using the simulator.')
  const sim = await startSimulator()
  log(`rxgate: no GATEWAY_BASE_URL/GATEWAY_API_KEY set; using an embedded gateway simulator at ${sim.url}`)
  // The simulator renders in about 1.5 s, so poll at its pace rather than a real render's.
  const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey, taskPoll: SIMULATOR_POLL })
  return { gateway, close: () => sim.close() }
}
