import { describe, expect, it } from 'vitest'
import { call, createTask, DONE, FROZEN, IMAGE_EDIT, json, simulator, T2V } from './helpers.js'

describe('simulator: bad task-read replies (badPollReply, counted over reads of known tasks)', () => {
  it('not-json: a 200 with a JSON content type and a body that is not JSON', async () => {
    const sim = await simulator({ faults: { badPollReply: { every: 2, kind: 'not-json' } } })
    const id = await createTask(sim, T2V)
    expect((await json(sim, `${T2V}/${id}`)).body.task_info.status).toBe('pending')
    const bad = await call(sim, `${T2V}/${id}`)
    expect(bad.status).toBe(200)
    expect(bad.headers.get('content-type')).toBe('application/json')
    const text = await bad.text()
    expect(() => JSON.parse(text)).toThrow()
    expect(sim.faultCounts).toEqual({ 'badPollReply:not-json': 1 })
  })

  it('wrong-shape: JSON without task_info', async () => {
    const sim = await simulator({ faults: { badPollReply: { every: 1, kind: 'wrong-shape' } } })
    const id = await createTask(sim, T2V)
    const { status, body } = await json(sim, `${T2V}/${id}`)
    expect(status).toBe(200)
    expect(body).not.toHaveProperty('task_info')
    expect(body.id).toBe(id)
  })

  it('other-task: a valid completed reply for another task id', async () => {
    const sim = await simulator({ timeScale: FROZEN, faults: { badPollReply: { every: 1, kind: 'other-task' } } })
    const id = await createTask(sim, IMAGE_EDIT)
    const { body } = await json(sim, `${IMAGE_EDIT}/${id}`)
    expect(body.task_info).toMatchObject({ status: 'completed' })
    expect(body.task_info.id).not.toBe(id)
    expect(body.task_info.id).toMatch(/^[\da-f-]{36}$/)
    expect(body.images).toHaveLength(2)
  })

  it('html: a 200 text/html page', async () => {
    const sim = await simulator({ faults: { badPollReply: { every: 1, kind: 'html' } } })
    const id = await createTask(sim, T2V)
    const res = await call(sim, `${T2V}/${id}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await res.text()).toMatch(/^<!DOCTYPE html>/)
  })

  it('backwards: a status earlier than the last one reported; the true one when only pending was seen', async () => {
    const sim = await simulator({ timeScale: FROZEN })
    const id = await createTask(sim, T2V)
    const status = async () => (await json(sim, `${T2V}/${id}`)).body
    sim.setFaults({ badPollReply: { every: 1, kind: 'backwards' } })
    expect((await status()).task_info.status).toBe('pending') // nothing earlier than pending
    sim.setFaults({})
    sim.advanceTime(DONE)
    expect((await status()).task_info.status).toBe('completed')
    sim.setFaults({ badPollReply: { every: 1, kind: 'backwards' } })
    const back = await status()
    expect(back.task_info.status).toBe('processing')
    expect(back).not.toHaveProperty('videos')
    sim.setFaults({})
    expect((await status()).task_info.status).toBe('completed')
  })

  it('backwards speaks the chosen vocabulary', async () => {
    const sim = await simulator({ timeScale: FROZEN, vocabulary: 'new' })
    const id = await createTask(sim, T2V)
    sim.advanceTime(FROZEN.pendingMs)
    expect((await json(sim, `${T2V}/${id}`)).body.task_info.status).toBe('running')
    sim.setFaults({ badPollReply: { every: 1, kind: 'backwards' } })
    expect((await json(sim, `${T2V}/${id}`)).body.task_info.status).toBe('queued')
  })

  it('leaves unknown ids alone: a 404, not counted', async () => {
    const sim = await simulator({ faults: { badPollReply: { every: 2, kind: 'html' } } })
    const id = await createTask(sim, T2V)
    expect((await call(sim, `${T2V}/00000000-0000-4000-8000-000000000000`)).status).toBe(404)
    expect((await call(sim, `${T2V}/${id}`)).headers.get('content-type')).toBe('application/json')
    expect((await call(sim, `${T2V}/${id}`)).headers.get('content-type')).toMatch(/html/)
  })
})
