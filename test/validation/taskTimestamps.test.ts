import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { task$ } from '../../src/tasks$.js'
import { TaskCreatedSchema, TaskReplySchemas } from '../../src/validation/task.js'
import { fakeClient, onClock } from '../helpers/client.js'
import { observe } from '../helpers/collect.js'
import { json } from '../helpers/fakeTransport.js'
import { TASK_ID, taskReply } from '../helpers/fixtures.js'

// The pattern of a timestamp reads digits, not dates: a moment that does not exist would become an Invalid Date `expiresAt`.

const withTimes = (status: string, at: string) => {
  const reply = taskReply(status)
  return { ...reply, task_info: { ...(reply.task_info as object), created_at: at, updated_at: at } }
}
const issues = (schema: v.GenericSchema<unknown, unknown>, value: unknown) => {
  const result = v.safeParse(schema, value)
  return result.success ? [] : result.issues.map((i) => ({ path: v.getDotPath(i) ?? '', message: i.message }))
}
const exist = 'must be a date and time that exist'

describe('a timestamp must name a moment that exists', () => {
  it.each([
    ['month 13, day 45, hour 99', '2026-13-45T99:99:99Z'],
    ['month 00', '2026-00-10T10:00:00Z'],
    ['day 00', '2026-03-00T10:00:00Z'],
    ['day 32', '2026-01-32T10:00:00Z'],
    ['30 February', '2026-02-30T10:00:00Z'],
    ['29 February of a common year', '2026-02-29T10:00:00Z'],
    ['31 April', '2026-04-31T10:00:00.5+00:00'],
    ['hour 25', '2026-03-01T25:00:00Z'],
    ['minute 60', '2026-03-01T10:60:00Z'],
    ['second 60', '2026-03-01T10:00:60Z'],
    ['29 February of a century not divisible by 400', '2100-02-29T10:00:00Z'],
    ['past the end of the day', '2026-03-01T24:00:00.5Z'],
    ['hour 24 with minutes', '2026-03-01T24:01:00Z'],
  ])('refuses %s (%s), with one issue per field', (_, at) => {
    expect(issues(TaskReplySchemas.video, withTimes('processing', at))).toEqual([
      { path: 'task_info.created_at', message: exist },
      { path: 'task_info.updated_at', message: exist },
    ])
    expect(issues(TaskCreatedSchema, { task_info: { id: TASK_ID, created_at: at, updated_at: at } }).map((i) => i.message)).toEqual([exist, exist])
  })

  it.each(['2028-02-29T10:00:00Z', '2000-02-29T10:00:00Z', '2026-12-31T23:59:59.999Z', '2026-01-01T00:00:00+00:00', '2026-04-30T10:00:00Z', '2026-06-30T12:34:56.123456+00:00', '2026-03-01T24:00:00Z', '2026-03-01T24:00:00.000Z'])('accepts %s', (at) => {
    expect(issues(TaskReplySchemas.video, withTimes('completed', at))).toEqual([])
  })

  it('a timestamp of another form has only the form’s issue', () => {
    expect(issues(TaskReplySchemas.video, withTimes('processing', '2026-13-45 99:99'))).toEqual([
      { path: 'task_info.created_at', message: 'must be an ISO 8601 UTC timestamp' },
      { path: 'task_info.updated_at', message: 'must be an ISO 8601 UTC timestamp' },
    ])
  })

  it('task$ of a completed video whose updated_at does not exist: ValidationError of the reply, no completed event', async () => {
    const { client, clock } = fakeClient(() => json(withTimes('completed', '2026-13-45T99:99:99Z')), { retry: { baseDelayMs: 0 } })
    const { values, error } = await onClock(clock, observe(task$(client, endpoints.t2vSpark, TASK_ID))).done
    expect(error).toMatchObject({ name: 'ValidationError', issues: expect.arrayContaining([{ path: 'task_info.updated_at', message: exist }]) })
    expect(values.filter((e) => e.type === 'completed')).toEqual([])
  })
})
