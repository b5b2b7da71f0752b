import type * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { TEXT_TO_VIDEO } from '../../src/contract/limits.js'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { serializeRequest } from '../../src/validation/check.js'
import { TextToVideoRequestLooseSchema, TextToVideoRequestSchema, VIDEO_SIZES } from '../../src/validation/textToVideoRequest.js'

function issuesOf(body: unknown, schema: v.GenericSchema<unknown, unknown> = TextToVideoRequestSchema): { path: string; message: string }[] {
  try {
    serializeRequest(schema, body, 'text-to-video request')
    return []
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidRequestError)
    return [...(err as InvalidRequestError).issues]
  }
}

describe('text-to-video request rules', () => {
  it.each([
    [{}, 'prompt', /required/],
    [{ prompt: '' }, 'prompt', /empty/],
    [{ prompt: 'x'.repeat(2001) }, 'prompt', /at most 2000 characters \(got 2001\)/],
    [{ prompt: 'ok', negative_prompt: 'n'.repeat(501) }, 'negative_prompt', /at most 500 characters \(got 501\)/],
    [{ prompt: 'ok', size: '1280x720' }, 'size', /one of 1280\*720/],
    [{ prompt: 'ok', size: '832*480' }, 'size', /one of/],
    [{ prompt: 'ok', duration: 7 }, 'duration', /5 or 10/],
    [{ prompt: 'ok', duration: '5' }, 'duration', /5 or 10/],
    [{ prompt: 'ok', seed: 2147483648 }, 'seed', /integer from 0 to 2147483647 \(got 2147483648\)/],
    [{ prompt: 'ok', seed: 1.5 }, 'seed', /integer/],
    [{ prompt: 'ok', seed: -1 }, 'seed', /integer from 0/],
    [{ prompt: 'ok', audio: 'yes' }, 'audio', /true or false/],
    [{ prompt: 'ok', audio_url: 'song.mp3' }, 'audio_url', /absolute URI/],
    [{ prompt: 'ok', audio_url: 'https:// spaced' }, 'audio_url', /absolute URI/],
    [{ prompt: 'ok', prompt_extend: null }, 'prompt_extend', /true or false/],
    [{ prompt: 'ok', safety_filter: true }, 'safety_filter', /not a field of text-to-video creation \(to send it anyway, pass allowUnknownFields to textToVideo\$/],
  ])('refuses %j, naming %s', (body, field, rule) => {
    const issue = issuesOf(body).find((i) => i.path === field)
    expect(issue, JSON.stringify(issuesOf(body))).toBeDefined()
    expect(issue!.message).toMatch(rule)
  })

  it('accepts every boundary value of the interface', () => {
    expect(issuesOf({ prompt: 'x'.repeat(2000), negative_prompt: 'n'.repeat(500), seed: 0, duration: 5 })).toEqual([])
    expect(issuesOf({ prompt: 'p', seed: 2147483647, duration: 10, audio: null, audio_url: null, prompt_extend: false })).toEqual([])
    expect(issuesOf({ prompt: 'p', audio: true, audio_url: 'https://files.test/a.mp3' })).toEqual([])
  })

  it.each(VIDEO_SIZES)('accepts the size %s', (size) => {
    expect(issuesOf({ prompt: 'p', size })).toEqual([])
  })

  it('knows the ten sizes of the interface', () => {
    expect(VIDEO_SIZES).toEqual(TEXT_TO_VIDEO.sizes)
    expect(VIDEO_SIZES).toHaveLength(10)
  })

  it('lets unknown fields through the loose schema, every other rule still applied', () => {
    expect(issuesOf({ prompt: 'ok', safety_filter: true }, TextToVideoRequestLooseSchema)).toEqual([])
    expect(issuesOf({ prompt: 'ok', safety_filter: true, seed: -1 }, TextToVideoRequestLooseSchema).map((i) => i.path)).toEqual(['seed'])
  })

  it('checks the body as sent: an inherited toJSON sending a 5,000-character prompt and seed -5 is refused', () => {
    const sneaky = Object.create({ toJSON: () => ({ prompt: 'p'.repeat(5_000), seed: -5 }) }) as Record<string, unknown>
    sneaky.prompt = 'ok'
    expect(issuesOf(sneaky).map((i) => i.path).sort()).toEqual(['prompt', 'seed'])
  })
})

describe('audio_url must be an absolute URI with an authority', () => {
  it.each(['https://files.test/a.mp3', 'HTTP://FILES.TEST/A.WAV', 's3://bucket/audio/a.mp3', 'x-1.2+y://host/a.wav'])('accepts %s', (audio_url) => {
    expect(issuesOf({ prompt: 'p', audio_url })).toEqual([])
  })

  it.each([
    ['a URI without an authority', 'mailto:a@files.test'],
    ['a URN', 'urn:isbn:0451450523'],
    ['an authority after a first scheme', 'urn:x://files.test/a.mp3'],
    ['text before the URI', 'see https://files.test/a.mp3'],
    ['a scheme starting with a digit', '3s://bucket/a.mp3'],
    ['no host', 'https:///a.mp3'],
    ['a relative path', '/audio/a.mp3'],
  ])('refuses %s (%j)', (_, audio_url) => {
    expect(issuesOf({ prompt: 'p', audio_url })).toEqual([{ path: 'audio_url', message: 'must be an absolute URI' }])
  })
})

describe('what each refusal says', () => {
  it.each([
    [{ prompt: 'p', size: '1280x720' }, 'size', `must be one of ${TEXT_TO_VIDEO.sizes.join(', ')}`],
    [{ prompt: 'p', duration: 7 }, 'duration', 'must be 5 or 10'],
    [{ prompt: '' }, 'prompt', 'must not be empty'],
    [{ prompt: 7 }, 'prompt', 'must be a string'],
    [{ prompt: 'p', negative_prompt: 7 }, 'negative_prompt', 'must be a string'],
    [{ prompt: 'p', seed: '1' }, 'seed', 'must be a number'],
    [{}, 'prompt', 'is required'],
  ])('%j: %s %s', (body, path, message) => {
    expect(issuesOf(body)).toEqual([{ path, message }])
    expect(issuesOf(body, TextToVideoRequestLooseSchema)).toEqual([{ path, message }])
  })

  it('a body that is not an object', () => {
    expect(issuesOf(null)).toEqual([{ path: '', message: 'must be an object' }])
  })
})
