import { createServer } from 'node:http'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastValueFrom } from 'rxjs'
import { describe, expect, it, onTestFinished } from 'vitest'
import { download$ } from '../../src/cli/download.js'
import { listen } from '../server/helpers.js'

// --out looks at the name before any request; a file put there after that look, while the video downloads, must not be replaced either.

/** A result host on 127.0.0.1 that, as the download is asked for, has a file put at `file`. */
async function hostPlanting(file: string): Promise<string> {
  const server = createServer((_req, res) => {
    void writeFile(file, 'my own video').then(() => res.writeHead(200, { 'content-length': '4' }).end('kite'))
  })
  const url = await listen(server)
  onTestFinished(() => new Promise<void>((done) => server.close(() => done())))
  return url
}

describe('rxgate --out: a file that appears at the name while the result downloads', () => {
  it.each([
    [false, 'is kept, and the download fails', 'my own video'],
    [true, 'is replaced with --overwrite', 'kite'],
  ])('overwrite %s: %s', async (overwrite, _, content) => {
    const dir = await mkdtemp(join(tmpdir(), 'rxgate-cli-race-'))
    onTestFinished(() => rm(dir, { recursive: true, force: true }))
    const file = join(dir, 'v.mp4')
    const url = await hostPlanting(file)
    const saved = lastValueFrom(download$(`${url}/v.mp4`, file, { allowHosts: [url], overwrite })).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(await saved === undefined).toBe(overwrite)
    expect(await readFile(file, 'utf8')).toBe(content)
    expect(await readdir(dir)).toEqual(['v.mp4'])
  })
})
