import { describe, expect, it } from 'vitest'
import { TEXT_TO_VIDEO } from '../../src/contract/index.js'
import { json, simulator, T2V, VIDEO_ONE } from './helpers.js'

const ok = { prompt: 'A fox in the snow' }

const ACCEPTED: [string, Record<string, unknown>][] = [
  ['a 1-character prompt', { prompt: 'x' }],
  ['a 2000-character prompt', { prompt: 'p'.repeat(2000) }],
  ['2000 astral characters (code points, not UTF-16 units)', { prompt: '🎬'.repeat(2000) }],
  ['a 500-character negative_prompt', { negative_prompt: 'n'.repeat(500) }],
  ['an empty negative_prompt', { negative_prompt: '' }],
  ['audio true, false and null', { audio: null }],
  ['audio false', { audio: false }],
  ['audio_url null', { audio_url: null }],
  ['an absolute audio_url', { audio_url: 'https://example.com/a.mp3' }],
  ['duration 5', { duration: 5 }],
  ['duration 10', { duration: 10 }],
  ['prompt_extend false', { prompt_extend: false }],
  ['seed 0', { seed: 0 }],
  ['seed 2147483647', { seed: 2147483647 }],
  ...TEXT_TO_VIDEO.sizes.map((size): [string, Record<string, unknown>] => [`size ${size}`, { size }]),
]

const REFUSED: [Record<string, unknown>, string, string][] = [
  [{ prompt: undefined, size: '1280*720' }, 'prompt', 'prompt: is required'],
  [{ prompt: '' }, 'prompt', 'prompt: must not be empty (got "")'],
  [{ prompt: 5 }, 'prompt', 'prompt: must be a string (got 5)'],
  [{ prompt: null }, 'prompt', 'prompt: must be a string (got null)'],
  [{ prompt: 'p'.repeat(2001) }, 'prompt', 'prompt: must be at most 2000 characters (got a string of 2001 characters)'],
  [{ prompt: '🎬'.repeat(2001) }, 'prompt', 'at most 2000 characters'],
  [{ negative_prompt: 'n'.repeat(501) }, 'negative_prompt', 'negative_prompt: must be at most 500 characters'],
  [{ negative_prompt: null }, 'negative_prompt', 'negative_prompt: must be a string (got null)'],
  [{ audio: 'yes' }, 'audio', 'audio: must be a boolean or null (got "yes")'],
  [{ audio_url: 'song.mp3' }, 'audio_url', 'audio_url: must be an absolute URI'],
  [{ audio_url: '/a.mp3' }, 'audio_url', 'must be an absolute URI'],
  [{ audio_url: 42 }, 'audio_url', 'audio_url: must be a string or null (got 42)'],
  [{ size: '1280x720' }, 'size', 'size: must be one of "1280*720"'],
  [{ size: '832*480' }, 'size', 'size: must be one of'],
  [{ size: null }, 'size', '(got null)'],
  [{ duration: 7 }, 'duration', 'duration: must be one of 5, 10 (got 7)'],
  [{ duration: '5' }, 'duration', 'duration: must be one of 5, 10 (got "5")'],
  [{ duration: 5.5 }, 'duration', '(got 5.5)'],
  [{ prompt_extend: null }, 'prompt_extend', 'prompt_extend: must be a boolean (got null)'],
  [{ prompt_extend: 'true' }, 'prompt_extend', 'must be a boolean'],
  [{ seed: -1 }, 'seed', 'seed: must be an integer from 0 to 2147483647 inclusive (got -1)'],
  [{ seed: 2147483648 }, 'seed', 'seed: must be an integer from 0 to 2147483647 inclusive (got 2147483648)'],
  [{ seed: 1.5 }, 'seed', 'seed: must be an integer (got 1.5)'],
  [{ seed: null }, 'seed', 'seed: must be an integer (got null)'],
  [{ safety_filter: true }, 'safety_filter', 'safety_filter: is not a field of text-to-video creation'],
  [{ model: 't2v' }, 'model', 'is not a field'],
]

describe('simulator checks: text-to-video creation, every rule at its boundary', () => {
  it.each(ACCEPTED)('accepts %s', async (_, extra) => {
    const sim = await simulator()
    const reply = await json(sim, T2V, { body: { ...ok, ...extra } })
    expect(reply.body.error ?? null).toBeNull()
    expect(reply.status).toBe(202)
  })

  it.each(REFUSED)('refuses %j naming %s', async (extra, param, message) => {
    const sim = await simulator()
    const reply = await json(sim, T2V, { body: { ...ok, ...extra } })
    expect(reply.status).toBe(400)
    expect(reply.body.error).toMatchObject({ type: 'invalid_request_error', param })
    expect(reply.body.error.message).toContain(message)
    expect(sim.tasks).toHaveLength(0)
  })

  it('checks fields in the interface order, unknown fields last', async () => {
    const sim = await simulator()
    const reply = await json(sim, T2V, { body: { seed: -1, extra: 1, duration: 7, prompt: 'x' } })
    expect(reply.body.error.param).toBe('duration')
    const unknownLast = await json(sim, T2V, { body: { extra: 1, prompt: 'x', seed: -1 } })
    expect(unknownLast.body.error.param).toBe('seed')
    expect((await json(sim, T2V, { body: { prompt: 'x', zzz: 1 } })).body.error.code).toBe('unknown_parameter')
  })

  it('lets unknown fields through with allowUnknownTextToVideoFields, and still checks the known ones', async () => {
    const sim = await simulator({ allowUnknownTextToVideoFields: true })
    expect((await json(sim, T2V, { body: { ...ok, safety_filter: true, watermark: false } })).status).toBe(202)
    expect((await json(sim, T2V, { body: { ...ok, safety_filter: true, seed: -1 } })).body.error.param).toBe('seed')
  })

  it('takes any JSON object with a non-empty string prompt for the other models (a simulator convenience)', async () => {
    const sim = await simulator()
    expect((await json(sim, VIDEO_ONE, { body: { prompt: 'x', anything: [1, 2] } })).status).toBe(202)
    const missing = await json(sim, VIDEO_ONE, { body: { image_url: 'https://x.example/a.png' } })
    expect(missing.body.error).toMatchObject({ param: 'prompt', message: 'prompt: is required', code: 'missing_required_parameter' })
    expect((await json(sim, VIDEO_ONE, { body: { prompt: '' } })).body.error.param).toBe('prompt')
  })
})
