import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { download$ } from '../../src/download/download$.js'
import type { DownloadOptions } from '../../src/download/types.js'
import { VirtualClock, settle } from '../helpers/clock.js'
import { observe } from '../helpers/collect.js'
import { fakeGateway, type FakeReply } from '../helpers/fakeTransport.js'
import { within } from '../helpers/server.js'
import { tempDir, withFs } from './scratch.js'

// With keepPartial a target is claimed by one download$ at a time; an unsubscribed download gives its claim up once,
// and whatever of its work fails afterwards must not give up the claim of the next download of that target.

const URL_ = 'https://cdn.example/files/clip.mp4?sig=secret-signature'

const whole = (body: FakeReply['body']): FakeReply => ({ status: 200, headers: { 'content-length': '10', 'accept-ranges': 'bytes', etag: '"v1"' }, body })

/** The first request gets the whole file; every later one a body that never ends. */
function setUp() {
  const gw = fakeGateway((req) => whole(req.n === 1 ? ['ABCDEFGHIJ'] : 'fed'))
  const options: DownloadOptions = { transport: gw.transport, scheduler: new VirtualClock(), keepPartial: true }
  return { options }
}

const refusedAsBusy = { name: 'InvalidRequestError', message: expect.stringContaining('is being downloaded by another download$ of this process') }

describe('download$ with keepPartial: an unsubscribed download leaves the target to the next one', () => {
  it('unsubscribed while it reads its partial file: the next download keeps the target to itself', async () => {
    const { options } = setUp()
    const file = join(await tempDir(), 'clip.mp4')
    download$(URL_, file, options).subscribe({ error: () => {} }).unsubscribe()
    const next = observe(download$(URL_, file, options))
    // The first download's reading of its part is refused once it was given up.
    await settle()
    const third = observe(download$(URL_, file, options))
    expect(next.error).toBeUndefined()
    expect(third.error).toMatchObject(refusedAsBusy)
    next.subscription.unsubscribe()
  })

  it('unsubscribed while its file is being placed, which then fails: the next download keeps the target to itself', async () => {
    const { options } = setUp()
    const file = join(await tempDir(), 'clip.mp4')
    let placing!: () => void
    const placingStarted = new Promise<void>((resolve) => (placing = resolve))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const refuse = async () => {
      placing()
      await gate
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })
    }
    const first = withFs({ link: refuse, rename: refuse }, () => download$(URL_, file, options).subscribe({ error: () => {} }))
    await within(placingStarted, 3_000, 'the file being placed')
    first.unsubscribe()
    const next = observe(download$(URL_, file, options))
    release()
    await settle()
    const third = observe(download$(URL_, file, options))
    expect(next.error).toBeUndefined()
    expect(third.error).toMatchObject(refusedAsBusy)
    next.subscription.unsubscribe()
  })
})
