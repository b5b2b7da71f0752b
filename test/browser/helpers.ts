import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { startSimulator, type Simulator, type SimRequestLog } from '../../src/sim/index.js'

export const ROOT = new URL('../../', import.meta.url).pathname
export const CHROMIUM = process.env.RXGATE_CHROMIUM ?? '/usr/bin/chromium'
/** CI sets `RXGATE_BROWSER_TESTS=required`: then a missing browser or build fails instead of skipping. */
export const REQUIRED = process.env.RXGATE_BROWSER_TESTS === 'required'

/** Flags that let Chromium run headless as root on a machine with no outside network (see the env notes). */
const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** The gateway key of the simulator: unique per run, so finding it anywhere the browser can see is a leak. */
export const KEY = `sk-browser-test-${randomUUID()}`

export const RESPONSES = '/vendors/vendor-a/v1/responses'
export const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'

/**
 * A suite that needs a real Chromium and built files (`needs`: what each is,
 * by path). Where one is missing it is skipped with a message saying how to
 * get it, unless `RXGATE_BROWSER_TESTS=required`, where it fails.
 */
export function browserSuite(name: string, needs: Record<string, string>, body: () => void): void {
  const absent = Object.entries({ [CHROMIUM]: 'apt-get install chromium', ...needs }).filter(([path]) => !existsSync(path))
  const advice = absent.map(([path, how]) => `${path} is missing (${how})`).join('; ')
  if (absent.length > 0 && !REQUIRED) {
    console.warn(`Skipped "${name}": ${advice}. Set RXGATE_BROWSER_TESTS=required to fail instead.`)
    describe.skip(name, body)
    return
  }
  describe(name, { timeout: 60_000 }, () => {
    if (absent.length > 0) {
      beforeAll(() => {
        throw new Error(`Browser tests are required, but ${advice}`)
      })
    }
    body()
  })
}

/** Chromium for the suite, closed after it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
  }, 30_000)
  afterAll(() => browser?.close())
  return () => browser!
}

/** The simulator for the suite (frames `streamDelayMs` apart, so a stream lasts long enough to watch and stop), closed after it. */
export function useSimulator(streamDelayMs = 60): () => Simulator {
  let sim: Simulator | undefined
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: KEY, streamDelayMs })
  })
  afterAll(() => sim?.close())
  return () => sim!
}

/**
 * Runs a server script (`node <script>`) on an ephemeral port of 127.0.0.1,
 * in front of `gateway`, for the suite; its address is read from the
 * "Listening on http://…" line it prints. Stopped (by its pid) after the suite.
 */
export function useServer(script: string, gateway: () => Simulator): () => string {
  let url: string | undefined
  let stop: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const sim = gateway()
    const child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    stop = async () => {
      child.kill('SIGTERM')
      await exited
    }
    let output = ''
    url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        const found = /Listening on (http:\/\/\S+)/.exec(output)
        if (found) resolve(found[1]!)
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      void exited.then(() => reject(new Error(`${script} exited before listening:\n${output}`)))
    })
  }, 30_000)
  afterAll(() => stop?.())
  return () => url!
}

/** What a page did that the tests check: problems it logged, and every reply it received (headers and body). */
export interface PageWatch {
  readonly problems: string[]
  /** Every reply received so far whose body could be read (a stopped stream has none). */
  replies(): Promise<{ url: string; headers: string; body: Buffer }[]>
}

export function watch(page: Page): PageWatch {
  const problems: string[] = []
  const reading: Promise<{ url: string; headers: string; body: Buffer } | undefined>[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console.${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('response', (response) => {
    reading.push(
      Promise.all([response.allHeaders(), response.body()]).then(
        ([headers, body]) => ({ url: response.url(), headers: JSON.stringify(headers), body }),
        () => undefined,
      ),
    )
  })
  return {
    problems,
    replies: async () => (await Promise.all(reading)).filter((reply) => reply !== undefined),
  }
}

/**
 * Records, in the page, the length of the streamed text and the phase at every
 * change of the DOM, so a test can tell text that grew while streaming from
 * text that appeared at once.
 */
export async function recordText(page: Page): Promise<() => Promise<{ phase: string; length: number }[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { samples: { phase: string; length: number }[] }
    w.samples = []
    const read = (id: string) => document.querySelector(`[data-testid=${id}]`)?.textContent ?? ''
    new MutationObserver(() => w.samples.push({ phase: read('phase'), length: read('text').length })).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  return () => page.evaluate(() => (window as unknown as { samples: { phase: string; length: number }[] }).samples)
}

/** The requests the simulator received since `from` (an index of its log) with this method and path. */
export function requestsTo(sim: Simulator, from: number, method: string, path: string): SimRequestLog[] {
  return sim.requests.slice(from).filter((r) => r.method === method && r.path === path)
}
