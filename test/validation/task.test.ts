import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { InvalidRequestError } from '../../src/errors/InvalidRequestError.js'
import { checkTaskId, TaskCreatedSchema, TaskReplySchemas } from '../../src/validation/task.js'
import { created, TASK_ID, T0, taskReply } from '../helpers/fixtures.js'

const paths = (schema: v.GenericSchema<unknown, unknown>, value: unknown): string[] => {
  const result = v.safeParse(schema, value)
  return result.success ? [] : result.issues.map((i) => v.getDotPath(i) ?? '')
}
const video = (value: unknown) => paths(TaskReplySchemas.video, value)
const withInfo = (over: Record<string, unknown>) => {
  const reply = taskReply('processing')
  return { ...reply, task_info: { ...(reply.task_info as object), ...over } }
}

describe('task statuses', () => {
  it.each([
    ['pending', 'pending'],
    ['processing', 'processing'],
    ['completed', 'completed'],
    ['queued', 'pending'],
    ['running', 'processing'],
    ['succeeded', 'completed'],
  ])('reads %s as %s', (word, status) => {
    const out = v.parse(TaskReplySchemas.video, taskReply(word))
    expect(out.task_info.status).toBe(status)
  })

  it('reads failed with its error', () => {
    const out = v.parse(TaskReplySchemas.video, taskReply('failed'))
    expect(out.task_info).toMatchObject({ status: 'failed', error: { code: 3001, title: 'Task Execution Error', detail: 'prompt refused' } })
  })

  it.each([['exploded'], ['COMPLETED'], [''], [3], [null]])('refuses the status %j', (status) => {
    expect(video(withInfo({ status }))).toContain('task_info.status')
  })

  it('refuses a failed task without its error, or with a malformed one', () => {
    expect(video(withInfo({ status: 'failed' }))).toContain('task_info.error')
    expect(video(withInfo({ status: 'failed', error: { code: 1.5, title: 't', detail: 'd' } }))).toContain('task_info.error.code')
    expect(video(withInfo({ status: 'failed', error: { code: 1, title: 't' } }))).toContain('task_info.error.detail')
  })
})

describe('task ids', () => {
  it.each([['not-a-uuid'], [''], [`${TASK_ID}x`], [42]])('refuses the id %j', (id) => {
    expect(video(withInfo({ id }))).toContain('task_info.id')
  })

  it('accepts an upper-case UUID', () => {
    expect(video(withInfo({ id: TASK_ID.toUpperCase() }))).toEqual([])
  })
})

describe('timestamps must be ISO 8601 UTC', () => {
  it.each([['2026-03-01T10:00:00Z'], ['2026-03-01T10:00:00.250Z'], ['2026-03-01T10:00:00.123456Z'], ['2026-03-01T10:00:00+00:00'], ['2026-03-01T10:00:00.5+00:00']])('accepts %s', (at) => {
    expect(video(withInfo({ created_at: at, updated_at: at }))).toEqual([])
  })

  it.each([
    ['no zone', '2026-03-01T10:00:00'],
    ['no zone, fractional', '2026-03-01T10:00:00.250'],
    ['another zone', '2026-03-01T10:00:00+02:00'],
    ['-00:00', '2026-03-01T10:00:00-00:00'],
    ['a space for T', '2026-03-01 10:00:00Z'],
    ['local time', '2026-03-01 10:00'],
    ['a date only', '2026-03-01'],
    ['text after the zone', '2026-03-01T10:00:00Z and more'],
    ['a second timestamp after the zone', '2026-03-01T10:00:00Z2026-03-01T10:00:00Z'],
    ['a line end after the zone', '2026-03-01T10:00:00Z\n'],
    ['text before the date', 'at 2026-03-01T10:00:00Z'],
    ['a number', 1_700_000_000],
  ])('refuses %s (%j)', (_, at) => {
    expect(video(withInfo({ created_at: at }))).toContain('task_info.created_at')
    expect(video(withInfo({ updated_at: at }))).toContain('task_info.updated_at')
  })
})

describe('result URLs', () => {
  it('accepts absolute http and https URLs, in any case', () => {
    expect(video(taskReply('completed', { urls: ['https://cdn.test/a.mp4', 'http://cdn.test/b.mp4?sig=1', 'HTTPS://CDN.TEST/C.MP4'] }))).toEqual([])
  })

  it.each([
    ['a relative URL', '/v.mp4'],
    ['ftp', 'ftp://cdn.test/v.mp4'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:video/mp4;base64,AAAA'],
    ['a scheme-relative URL', '//cdn.test/v.mp4'],
    ['https without a host', 'https:///v.mp4'],
    ['a space', 'https:// cdn.test/v.mp4'],
    ['text around a URL', 'see https://cdn.test/v.mp4'],
    ['not a string', 42],
  ])('refuses %s (%j)', (_, url) => {
    expect(video(taskReply('completed', { urls: ['https://cdn.test/ok.mp4', url as string] }))).toContain('videos.1')
  })

  it('requires at least one URL in the field of its kind when completed', () => {
    expect(video(taskReply('completed', { urls: [] }))).toContain('videos')
    expect(video({ ...taskReply('completed'), videos: undefined })).toContain('videos')
    expect(paths(TaskReplySchemas.image, taskReply('completed'))).toContain('images')
    expect(paths(TaskReplySchemas.image, taskReply('completed', { field: 'images', urls: ['https://cdn.test/1.png', 'https://cdn.test/2.png'] }))).toEqual([])
  })

  it('needs no URL before the task is completed', () => {
    expect(video(taskReply('pending'))).toEqual([])
    expect(video(taskReply('failed'))).toEqual([])
  })
})

describe('the 202 reply to creation', () => {
  it('holds task_info with the id and both timestamps, and no status', () => {
    expect(v.parse(TaskCreatedSchema, created())).toEqual(created())
  })

  it.each([
    ['no task_info', { ok: true }, 'task_info'],
    ['no id', { task_info: { created_at: T0, updated_at: T0 } }, 'task_info.id'],
    ['an id that is not a UUID', { task_info: { id: 'abc', created_at: T0, updated_at: T0 } }, 'task_info.id'],
    ['a local timestamp', { task_info: { id: TASK_ID, created_at: '2026-03-01 10:00', updated_at: T0 } }, 'task_info.created_at'],
  ])('refuses %s', (_, reply, path) => {
    expect(paths(TaskCreatedSchema, reply)).toContain(path)
  })
})

describe('checkTaskId', () => {
  it('accepts a UUID in either case', () => {
    expect(checkTaskId(TASK_ID)).toBe(TASK_ID)
    expect(checkTaskId(TASK_ID.toUpperCase())).toBe(TASK_ID.toUpperCase())
  })

  it.each(['', '../x', 'abc', `${TASK_ID}/../../x`, `${TASK_ID}?a=1`, 'a/b', 42])('refuses %j as taskId', (id) => {
    expect(() => checkTaskId(id)).toThrow(InvalidRequestError)
    try {
      checkTaskId(id)
    } catch (err) {
      expect((err as InvalidRequestError).issues).toEqual([{ path: 'taskId', message: `must be a UUID (got ${JSON.stringify(id)})` }])
    }
  })
})

describe('what each refusal says', () => {
  const issues = (schema: v.GenericSchema<unknown, unknown>, value: unknown) => {
    const result = v.safeParse(schema, value)
    return result.success ? [] : result.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message }))
  }
  const completed = taskReply('completed')

  it.each([
    ['an id that is not a UUID', withInfo({ id: 'abc' }), [{ path: 'task_info.id', message: 'must be a UUID' }]],
    ['a local timestamp', withInfo({ updated_at: '2026-03-01 10:00' }), [{ path: 'task_info.updated_at', message: 'must be an ISO 8601 UTC timestamp' }]],
    ['an unknown status', withInfo({ status: 'exploded' }), [{ path: 'task_info.status', message: 'must be a task status' }]],
    ['task_info that is not an object', { task_info: null }, [{ path: 'task_info', message: 'must be a task status' }]],
    ['a URL of another scheme', { ...completed, videos: ['ftp://cdn.test/v.mp4'] }, [{ path: 'videos.0', message: 'must be an absolute http(s) URL, without whitespace or control characters' }]],
    ['videos that are not a list (no second issue for the missing URL)', { ...completed, videos: 5 }, [{ path: 'videos', message: 'must be a list of URLs' }]],
    ['an empty list once completed', { ...completed, videos: [] }, [{ path: 'videos', message: 'must hold at least one URL when the task is completed' }]],
    ['a bad id and no URL once completed', { ...completed, task_info: { ...(completed.task_info as object), id: 'abc' }, videos: [] }, [
      { path: 'task_info.id', message: 'must be a UUID' },
      { path: 'videos', message: 'must hold at least one URL when the task is completed' },
    ]],
  ])('a video reply with %s', (_, reply, expected) => {
    expect(issues(TaskReplySchemas.video, reply)).toEqual(expected)
  })

  // The URL rule reads only the status and the list: a field of the wrong type elsewhere does not hide it.
  it.each([
    ['an id of the wrong type', { id: 42 }, 'task_info.id'],
    ['a timestamp of the wrong type', { updated_at: null }, 'task_info.updated_at'],
  ])('a completed video reply with no URL and %s reports both', (_, info, path) => {
    const reply = { ...completed, task_info: { ...(completed.task_info as object), ...info }, videos: [] }
    expect(issues(TaskReplySchemas.video, reply).map((i) => i.path)).toEqual([path, 'videos'])
  })

  it('an image reply whose images are not a list', () => {
    expect(issues(TaskReplySchemas.image, { ...taskReply('completed', { field: 'images' }), images: 'https://cdn.test/1.png' })).toEqual([{ path: 'images', message: 'must be a list of URLs' }])
  })
})

describe('result URLs start with their scheme', () => {
  it.each([
    ['another scheme wrapping an http URL', 'javascript:http://cdn.test/v.mp4'],
    ['an http URL in the path of an ftp URL', 'ftp://cdn.test/http://cdn.test/v.mp4'],
  ])('refuses %s (%j)', (_, url) => {
    expect(video(taskReply('completed', { urls: [url] }))).toEqual(['videos.0'])
  })
})
