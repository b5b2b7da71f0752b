import { randomUUID } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { TASK_MODELS } from '../../src/contract/paths.js'
import { startServer, sendJson } from '../helpers/server.js'
import { runInProcess } from './inProcess.js'

// The gateway chooses how many result URLs a completed task lists: --out downloads no more than 16 of one task.

const i2i = TASK_MODELS.find((m) => m.key === 'i2iPreview')!

/** A gateway whose image task is completed with `count` result URLs of its own origin, each four bytes. */
async function gatewayListing(count: number, id: string) {
  const server = await startServer((req, res) => {
    if (req.path === `${i2i.resultPath}/${id}`) {
      const at = new Date().toISOString()
      const images = Array.from({ length: count }, (_, i) => `${server.url}/files/${i}.png`)
      return sendJson(res, 200, { task_info: { id, status: 'completed', created_at: at, updated_at: at }, images })
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' }).end('kite')
  })
  return server
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rxgate-cli-files-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const files = (server: { requests: { path: string }[] }) => server.requests.filter((r) => r.path.startsWith('/files/')).length

describe('rxgate task --out, a task listing many results', () => {
  it('100 URLs: exit 1 saying so, no download request, no file', async () => {
    const id = randomUUID()
    const server = await gatewayListing(100, id)
    const dir = await scratch()
    const { code, stderr } = await runInProcess(['task', 'i2iPreview', id, '--out', dir], { GATEWAY_BASE_URL: server.url, GATEWAY_API_KEY: 'sk-test' })
    expect(code).toBe(1)
    expect(stderr).toContain('ValidationError: Unexpected task result from the gateway: urls: lists 100 result files, more than the 16 allowed (maxFiles); none was downloaded (its results stay at the gateway until they expire)')
    expect(stderr).toContain(`rxgate: the task is done; print its result URLs with: rxgate task i2iPreview ${id}\n`)
    expect(files(server)).toBe(0)
    expect(await readdir(dir)).toEqual([])
  })

  it('16 URLs are all saved', async () => {
    const id = randomUUID()
    const server = await gatewayListing(16, id)
    const dir = await scratch()
    const { code, stderr } = await runInProcess(['task', 'i2iPreview', id, '--out', dir], { GATEWAY_BASE_URL: server.url, GATEWAY_API_KEY: 'sk-test' })
    expect(code, stderr).toBe(0)
    expect(files(server)).toBe(16)
    expect(await readdir(dir)).toHaveLength(16)
  })
})
