import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { isValidationError } from '../../src/errors/ValidationError.js'
import { task$ } from '../../src/tasks$.js'
import { taskUrls } from '../../src/operators/taskUrls.js'
import { fakeClient, onClock } from '../helpers/client.js'
import { observe } from '../helpers/collect.js'
import { json } from '../helpers/fakeTransport.js'
import { TASK_ID, taskReply } from '../helpers/fixtures.js'

// A result URL is printed, logged and read line by line: one holding a line
// break would let the gateway write a second line of its own choosing
// (a forged URL, an instruction) into whatever reads the output.

const FAST = { taskPoll: { initialDelayMs: 10, factor: 1, maxDelayMs: 10, jitter: 0 }, retry: { baseDelayMs: 0 } }

/** Follows a task whose every read is completed with `urls`, and says how the follow ended. */
async function follow(urls: string[], field: 'videos' | 'images' = 'videos') {
  const endpoint = field === 'videos' ? endpoints.t2vSpark : endpoints.i2iPreview
  const { clock, client } = fakeClient(() => json(taskReply('completed', { urls, field })), FAST)
  return onClock(clock, observe(task$(client, endpoint, TASK_ID).pipe(taskUrls()))).done
}

describe('a task result URL holding whitespace or a control character', () => {
  it.each([
    ['a line break', 'https://cdn.test/v.mp4?sig=1\nhttps://evil.test/run.sh'],
    ['a carriage return', 'https://cdn.test/v.mp4\r'],
    ['a tab', 'https://cdn.test/v\t.mp4'],
    ['a space', 'https://cdn.test/my video.mp4'],
    ['a NUL', 'https://cdn.test/v.mp4\u0000'],
    ['an escape (terminal control)', 'https://cdn.test/\u001b[2Jv.mp4'],
    ['DEL', 'https://cdn.test/v.mp4\u007f'],
    ['a C1 control (CSI)', 'https://cdn.test/\u009b2Jv.mp4'],
    ['a Unicode line separator', 'https://cdn.test/v.mp4\u2028https://evil.test/'],
  ])('%s: the follow ends in ValidationError at the URL, and no URL is emitted', async (_, url) => {
    const { values, error } = await follow(['https://cdn.test/ok.mp4', url])
    expect(values).toEqual([])
    expect(isValidationError(error)).toBe(true)
    expect(error).toMatchObject({ name: 'ValidationError', taskId: TASK_ID })
    expect(String((error as Error).message)).toContain('videos.1')
  })

  it('an image URL with a line break: ValidationError too', async () => {
    const { values, error } = await follow(['https://cdn.test/1.png\nhttps://evil.test/2.png'], 'images')
    expect(values).toEqual([])
    expect(isValidationError(error)).toBe(true)
  })

  it('a URL with percent-escapes and a query is taken as it is', async () => {
    const url = 'https://cdn.test/my%20video.mp4?sig=a%0Ab&x=1'
    const { values, error } = await follow([url])
    expect(error).toBeUndefined()
    expect(values).toEqual([[url]])
  })
})
