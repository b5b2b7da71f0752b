// Many tasks: `tasks` concurrent task$ polls against a minimal loopback server
// in another process. Reports heap bytes and active timers per polling task,
// and client CPU microseconds per poll.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { createGateway, endpoints } from '../dist/index.js'

const gc = globalThis.gc ?? (() => {})
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed)
const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length

export async function tasksBench({ tasks = 10_000, pollMs = 2_000, windowMs = 6_000 } = {}) {
  const child = fork(new URL('./taskServer.mjs', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const [{ port }] = await once(child, 'message')
  const ask = async () => (child.send('count'), (await once(child, 'message'))[0].requests)
  const gateway = createGateway({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: 'bench-key',
    taskPoll: { initialDelayMs: pollMs, factor: 1, maxDelayMs: pollMs, jitter: 0.5 },
    taskDeadlineMs: 3_600_000,
  })
  try {
    const heapBefore = heap()
    const timersBefore = timers()
    const subscriptions = Array.from({ length: tasks }, () => gateway.task$(endpoints.t2vSpark, randomUUID()).subscribe({ error: (e) => console.error(e.message) }))
    await sleep(pollMs * 1.5) // every task has read once and is waiting or reading
    const requestsAtStart = await ask()
    const cpuAtStart = process.cpuUsage()
    await sleep(windowMs)
    const cpu = process.cpuUsage(cpuAtStart)
    const polls = (await ask()) - requestsAtStart
    const heapPerTask = (heap() - heapBefore) / tasks
    const timersPerTask = (timers() - timersBefore) / tasks
    for (const s of subscriptions) s.unsubscribe()
    await sleep(50)
    const timersLeft = timers() - timersBefore
    return { tasks, polls, heapPerTask, timersPerTask, cpuPerPollUs: (cpu.user + cpu.system) / Math.max(1, polls), timersLeft }
  } finally {
    child.send('stop')
    await once(child, 'exit')
  }
}
