import { readFileSync } from 'node:fs'
import { lastValueFrom, toArray, type Observable } from 'rxjs'
import { createClient, type Client } from '../../src/client.js'
import type { Transport } from '../../src/transport/types.js'

const dir = new URL('./fixtures/', import.meta.url)

/** A recorded stream: its raw `text/event-stream` body and the event payloads in it. */
export interface Recording {
  readonly sse: string
  readonly events: Record<string, unknown>[]
}

/**
 * Reads a recorded stream. A `.chunks.txt` (one payload per line) is framed
 * as the server framed it (`event:` and `data:` lines); an `.sse` is the body
 * as recorded, comments and `[DONE]` included.
 */
export function recording(name: string): Recording {
  const text = readFileSync(new URL(name, dir), 'utf8')
  if (name.endsWith('.sse')) {
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '[DONE]')
      .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
    return { sse: text, events }
  }
  const events = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  return { sse: events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join(''), events }
}

/** A recorded Response object. */
export function recordedResponse(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Record<string, unknown>
}

/** A client whose every request is answered with `body`, in chunks of `chunk` bytes (streams split mid-event). */
export function replayClient(body: string, contentType: string, chunk = 1000): Client {
  const bytes = new TextEncoder().encode(body)
  const transport: Transport = async () => ({
    status: 200,
    header: (name) => (name.toLowerCase() === 'content-type' ? contentType : undefined),
    body: (async function* () {
      for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk)
    })(),
    text: async () => body,
  })
  return createClient({ baseUrl: 'https://gateway.test', apiKey: 'replay-key', transport, retry: false })
}

/** A client that streams a recording. */
export function streamOf(name: string): Client {
  return replayClient(recording(name).sse, 'text/event-stream')
}

/** Every value, once the Observable completes (rejects on error). */
export function all<T>(source: Observable<T>): Promise<T[]> {
  return lastValueFrom(source.pipe(toArray()))
}

/** The error the Observable ends with; rejects if it completes instead. */
export async function failure(source: Observable<unknown>): Promise<unknown> {
  try {
    await lastValueFrom(source, { defaultValue: undefined })
  } catch (err) {
    return err
  }
  throw new Error('expected an error, but the Observable completed')
}
