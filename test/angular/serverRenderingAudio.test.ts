import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverRendering } from '../../src/angular/serverRendering.js'
import { checkAudio$ } from '../../src/audio/checkAudio$.js'
import { createClient } from '../../src/client.js'
import { textToVideo$ } from '../../src/tasks$.js'
import { observe } from '../helpers/collect.js'

// The audio_url check of textToVideo$ reads the file with a fetch of its own,
// not the client's transport: a server-side render must not send it either
// (the browser checks again when the hydrated page calls).

let server: Server
let origin = ''
const seen: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`)
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('serverRendering: the audio_url check of textToVideo$', () => {
  it('sends nothing to the audio host, and the call waits until unsubscribed, with nothing left behind', async () => {
    const client = createClient(serverRendering({ baseUrl: '/api/rxgate' }))
    // Even a call that opens the host to the check (its own allowHosts) makes no request during the render.
    const o = observe(textToVideo$(client, { prompt: 'A red kite', audio_url: `${origin}/ssr.wav` }, { checkAudio: { allowHosts: [origin] } }))
    // A check made outside the render after it, to the same host: once its request has arrived, the render's would have too.
    const control = observe(checkAudio$(`${origin}/control.wav`, { allowHosts: [origin] }))
    await control.done
    expect(seen).toContain('HEAD /control.wav')
    expect(seen.filter((line) => line.includes('/ssr.wav'))).toEqual([])
    expect(o.values).toEqual([])
    expect(o.error).toBeUndefined()
    expect(o.completed).toBe(false)
    o.subscription.unsubscribe()
    expect(seen.filter((line) => line.includes('/ssr.wav'))).toEqual([])
  })

  it('bad check options are still refused during the render, as in the browser, and nothing is sent', async () => {
    const client = createClient(serverRendering({ baseUrl: '/api/rxgate' }))
    const { error } = await observe(textToVideo$(client, { prompt: 'A red kite', audio_url: `${origin}/bad.wav` }, { checkAudio: { allowHosts: 'x' as never } })).done
    expect(error).toMatchObject({ name: 'InvalidRequestError' })
    expect(seen.filter((line) => line.includes('/bad.wav'))).toEqual([])
  })
})
