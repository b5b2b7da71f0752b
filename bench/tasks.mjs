// Many tasks: `tasks` concurrent task$ follows under the default video policy
// against a minimal server in another process (its CPU is not counted).
// Every task reads at once; the CPU per poll is measured over that burst,
// beside a floor that sends the same reads with undici over the same number of
// connections and parses them (JSON.parse). Then every task waits ~10 s for
// its next poll: heap and timers per task are measured in that wait.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { Agent, request } from 'undici'
import { createClient, endpoints, task$ } from '../dist/index.js'
import { median } from './measure.mjs'

const gc = globalThis.gc ?? (() => {})
const heap = () => (gc(), gc(), process.memoryUsage().heapUsed)
const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length
const cpuNow = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}

async function floorCpu(base, agent, tasks) {
  const ids = Array.from({ length: tasks }, () => randomUUID())
  const started = cpuNow()
  await Promise.all(
    ids.map(async (id) => {
      const res = await request(`${base}${endpoints.t2vSpark.resultPath}/${id}`, { headers: { authorization: 'Bearer bench-key', accept: 'application/json' }, dispatcher: agent })
      JSON.parse(await res.body.text())
    }),
  )
  return (cpuNow() - started) / tasks
}

async function rxgateRun(client, tasks, measureHeap) {
  let seen = 0
  let all
  const done = new Promise((resolve) => (all = resolve))
  const heapBefore = measureHeap ? heap() : 0
  const timersBefore = timers()
  const started = cpuNow()
  const subscriptions = Array.from({ length: tasks }, () =>
    task$(client, endpoints.t2vSpark, randomUUID()).subscribe({ next: () => ++seen === tasks && all(), error: (e) => console.error(e.message) }),
  )
  await done
  const cpuPerPoll = (cpuNow() - started) / tasks
  await sleep(50) // every task is waiting for its next poll
  const result = { cpuPerPoll, heapPerTask: measureHeap ? (heap() - heapBefore) / tasks : 0, timersPerTask: (timers() - timersBefore) / tasks }
  for (const s of subscriptions) s.unsubscribe()
  await sleep(20)
  return { ...result, timersLeft: timers() - timersBefore }
}

export async function tasksBench({ tasks = 10_000, rounds = 3 } = {}) {
  const child = fork(new URL('./taskServer.mjs', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const [{ port }] = await once(child, 'message')
  const base = `http://127.0.0.1:${port}`
  const client = createClient({ baseUrl: base, apiKey: 'bench-key' })
  // The floor gets as many connections as rxgate uses for JSON requests by default.
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 })
  try {
    await floorCpu(base, agent, 200) // warm both up
    await rxgateRun(client, 200, false)
    const floor = []
    const ours = []
    let last
    for (let i = 0; i < rounds; i++) {
      floor.push(await floorCpu(base, agent, tasks))
      last = await rxgateRun(client, tasks, i === rounds - 1)
      ours.push(last.cpuPerPoll)
    }
    const ratio = ours.map((c, i) => c / floor[i])
    return {
      tasks,
      heapPerTask: last.heapPerTask,
      timersPerTask: last.timersPerTask,
      timersLeft: last.timersLeft,
      cpuPerPollUs: median(ours),
      floorCpuPerPollUs: median(floor),
      cpuRatio: { median: median(ratio), min: Math.min(...ratio), max: Math.max(...ratio) },
    }
  } finally {
    await agent.close()
    child.send('stop')
    await once(child, 'exit')
  }
}
