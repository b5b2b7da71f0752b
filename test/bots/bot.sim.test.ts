import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastValueFrom } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { bot$, type BotView } from '../../src/cli/bot.js'
import type { TaskEvent } from '../../src/operators/pollTask.js'
import { createGateway } from '../../src/gateway.js'
import { creations, simulator } from './sim.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('the text-to-video bot against the simulator', () => {
  it('writes the prompt, picks the settings in one tool round, renders and saves the video', async () => {
    const sim = await simulator()
    const sent: { url: string; body: string }[] = []
    const fetch: typeof globalThis.fetch = (url, init) => {
      if (typeof init?.body === 'string') sent.push({ url: String(url), body: init.body })
      return globalThis.fetch(url, init)
    }
    const gateway = createGateway({ baseUrl: sim.url, apiKey: sim.apiKey, fetch, taskPoll: { initialDelayMs: 10, factor: 1, maxDelayMs: 10, jitter: 0 } })
    const outDir = await mkdtemp(join(tmpdir(), 'rxgate-bot-'))
    dirs.push(outDir)
    const seen: string[] = []
    const view: BotView = {
      delta: () => seen.at(-1) !== 'delta' && seen.push('delta'),
      tool: (line) => seen.push(line),
      task: (event: TaskEvent) => {
        seen.push(`task ${event.type}`)
        if (event.type === 'created') sim.advanceTime(10 * 60_000) // skip the render
      },
    }
    const result = await lastValueFrom(bot$(gateway, { topic: 'a red kite over the moor', model: 'gpt-4.1-mini', size: '960*960', duration: 10, outDir }, view))
    expect(seen.slice(0, 3)).toEqual(['delta', 'Tool choose_video_settings({"size":"1280*720","duration":5}) → {"size":"1280*720","duration":5}', 'task created'])
    expect(seen.at(-1)).toBe('task completed')
    expect(result.prompt).toContain('a red kite over the moor')
    expect((await stat(result.file)).size).toBe(result.bytes)
    // The prompt, then the tool round's one response: the loop stops at the good call, no answer after it is paid for.
    expect(creations(sim)).toBe(2)
    expect(sim.tasks).toHaveLength(1)
    // The render uses the tool's choice, not the fallback in the options.
    const render = JSON.parse(sent.find((r) => r.url.includes('/t2v-spark/'))!.body)
    expect([render.size, render.duration, render.prompt]).toEqual(['1280*720', 5, result.prompt])
  })
})
