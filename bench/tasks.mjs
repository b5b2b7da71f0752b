// Many tasks: `tasks` concurrent task$ follows under the default video policy
// against a minimal loopback server in another process. Every task reads at
// once (the CPU per poll is measured over that burst), then waits ~10 s for its
// next poll: the heap and timers per task are measured in that wait.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { createGateway, endpoints } from '../dist/index.js'

const gc = globalThis.gc ?? (() => {})
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed)
const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length

export async function tasksBench({ tasks = 10_000 } = {}) {
  const child = fork(new URL('./taskServer.mjs', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const [{ port }] = await once(child, 'message')
  const served = async () => (child.send('count'), (await once(child, 'message'))[0].requests)
  const gateway = createGateway({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'bench-key' })
  try {
    // Warm the connection pool and the code, then measure from a clean heap.
    await new Promise((resolve) => gateway.task$(endpoints.t2vSpark, randomUUID()).subscribe({ next: resolve }).add(() => {}))
    const before = await served()
    const heapBefore = heap()
    const timersBefore = timers()
    const cpuStart = process.cpuUsage()
    const subscriptions = Array.from({ length: tasks }, () => gateway.task$(endpoints.t2vSpark, randomUUID()).subscribe({ error: (e) => console.error(e.message) }))
    while ((await served()) - before < tasks) await sleep(20)
    await sleep(50) // the last replies are parsed and every task is waiting
    const cpu = process.cpuUsage(cpuStart)
    const heapPerTask = (heap() - heapBefore) / tasks
    const timersPerTask = (timers() - timersBefore) / tasks
    for (const s of subscriptions) s.unsubscribe()
    await sleep(20)
    return { tasks, heapPerTask, timersPerTask, cpuPerPollUs: (cpu.user + cpu.system) / tasks, timersLeft: timers() - timersBefore }
  } finally {
    child.send('stop')
    await once(child, 'exit')
  }
}
