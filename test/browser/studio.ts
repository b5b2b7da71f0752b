import { expect } from 'vitest'
import type { Page } from 'playwright-core'
import type { Simulator } from '../../src/sim/index.js'
import { KEY, recordText, requestsTo, RESPONSES, T2V, type PageWatch } from './helpers.js'

// Both example pages (plain and Angular) show a run the same way, by test id:
// phase, text (the streamed prompt), statuses (the task's steps), video, stop.

const text = (page: Page) => page.textContent('[data-testid=text]').then((t) => t ?? '')
const phase = (page: Page) => page.textContent('[data-testid=phase]').then((t) => t ?? '')

/**
 * A whole run, started by `start`: the text grows in the page while it
 * streams, the video task's steps show in order, and the video loads and plays.
 */
export async function checkRun(page: Page, start: () => Promise<void>): Promise<void> {
  const samples = await recordText(page)
  await start()
  await page.waitForFunction(() => document.querySelector('[data-testid=phase]')?.textContent === 'done', undefined, { timeout: 30_000 })
  const final = (await text(page)).length
  expect(final).toBeGreaterThan(40)
  // While the phase was still "writing", the page showed several partial texts, each longer than the last.
  const partial = [...new Set((await samples()).filter((s) => s.phase === 'writing' && s.length > 0 && s.length < final).map((s) => s.length))]
  expect(partial.length).toBeGreaterThanOrEqual(3)
  expect(partial).toEqual([...partial].sort((a, b) => a - b))
  const statuses = (await page.locator('[data-testid=statuses] li').allTextContents()).map((s) => s.trim())
  expect(statuses[0]).toBe('created')
  expect(statuses.at(-1)).toBe('completed')
  expect(statuses).toEqual(['created', 'pending', 'processing', 'completed'].filter((s) => statuses.includes(s)))
  expect(statuses.some((s) => s === 'pending' || s === 'processing')).toBe(true)
  // HAVE_CURRENT_DATA or better: the MP4 was fetched and decoded.
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 10_000 })
  expect(await page.evaluate(() => ({ error: document.querySelector('video')?.error ?? null, duration: document.querySelector('video')?.duration }))).toEqual({ error: null, duration: 1 })
}

/**
 * Stop in the middle of the stream: the page keeps what it had, and the
 * abort travels from the browser through the app's server to the gateway,
 * which sees its client close the stream before the end. No task is created.
 */
export async function checkStop(page: Page, sim: Simulator, start: () => Promise<void>): Promise<void> {
  const from = sim.requests.length
  const closedBefore = sim.connectionsClosedByClient
  await start()
  await page.waitForFunction(() => (document.querySelector('[data-testid=text]')?.textContent ?? '').length > 0)
  await page.click('[data-testid=stop]')
  await expect.poll(() => requestsTo(sim, from, 'POST', RESPONSES)[0]?.aborted, { timeout: 10_000 }).toBe(true)
  await expect.poll(() => sim.connectionsClosedByClient, { timeout: 10_000 }).toBeGreaterThan(closedBefore)
  expect(await phase(page)).toBe('stopped')
  const shown = (await text(page)).length
  expect(shown).toBeGreaterThan(0)
  expect(requestsTo(sim, from, 'POST', T2V)).toEqual([])
  // Nothing more arrives after Stop.
  await page.waitForTimeout(300)
  expect((await text(page)).length).toBe(shown)
}

/** Nothing the browser received (HTML, scripts, JSON, streams, the video) holds the key, and the page logged no errors. */
export async function checkNoKeyNoErrors(watched: PageWatch, extraFiles: { name: string; body: Buffer }[] = []): Promise<void> {
  const replies = await watched.replies()
  expect(replies.length).toBeGreaterThan(3)
  for (const { url, headers, body } of [...replies, ...extraFiles.map(({ name, body }) => ({ url: name, headers: '', body }))]) {
    for (const part of [KEY, KEY.slice(0, 16), KEY.slice(-16)]) {
      expect(body.includes(part), `${url} holds the key`).toBe(false)
      expect(headers.includes(part), `${url} has the key in a header`).toBe(false)
    }
  }
  expect(watched.problems).toEqual([])
}
