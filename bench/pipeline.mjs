// Pull-based batch: `prompts` responses through a writer that takes
// `writeDelayMs` a line (its buffer `buffer` lines), with `concurrency`
// calls at once, built two ways against the simulator:
//   toReadable     toReadable(from(prompts).pipe(mergeMap(ask, concurrency))):
//                  the Observable pushes, so calls start as fast as others
//                  finish and their results wait in the bridge's buffer
//   mapConcurrent  Readable.from(prompts) → mapConcurrent(ask, { concurrency }):
//                  a call starts only when the pipeline asks for a result
// Counted: paid calls started (requests sent, from the client's onRequest
// hook) and responses the gateway created when `at` lines have been written,
// and the most calls started beyond the lines written at any moment, against
// the bound mapConcurrent keeps: concurrency + the writer's buffer.
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { from, mergeMap } from 'rxjs'

/** Where the built library is: the bench runs after `npm run build`. */
const DIST = {
  main: new URL('../dist/index.js', import.meta.url).href,
  node: new URL('../dist/node/index.js', import.meta.url).href,
  sim: new URL('../dist/sim/index.js', import.meta.url).href,
}

async function* jsonLines(results) {
  for await (const r of results) yield `${JSON.stringify(r)}\n`
}

export async function pipelineBench({ prompts = 200, concurrency = 8, buffer = 4, writeDelayMs = 5, at = 20, modules = DIST } = {}) {
  const [{ createClient, mapConcurrent, outputText, responses$ }, { toReadable }, { startSimulator }] = await Promise.all([
    import(modules.main),
    import(modules.node),
    import(modules.sim),
  ])
  const inputs = Array.from({ length: prompts }, (_, i) => `Prompt number ${i}`)

  const run = async (stages) => {
    const sim = await startSimulator()
    let started = 0
    let written = 0
    let maxAhead = 0
    let atLine
    const client = createClient({
      baseUrl: sim.url,
      apiKey: sim.apiKey,
      hooks: {
        onRequest: () => {
          started++
          maxAhead = Math.max(maxAhead, started - written)
        },
      },
    })
    const ask = (prompt) => responses$(client, { model: 'gpt-4.1-mini', input: prompt }).pipe(outputText())
    const writer = new Writable({
      objectMode: true,
      highWaterMark: buffer,
      write(_line, _encoding, callback) {
        setTimeout(() => {
          if (++written === at) atLine = { started, created: sim.responses.length }
          callback()
        }, writeDelayMs)
      },
    })
    const t0 = performance.now()
    try {
      await pipeline(...stages(ask, mapConcurrent, toReadable), jsonLines, writer)
      return { started, created: sim.responses.length, written, maxAhead, atLine, ms: performance.now() - t0 }
    } finally {
      await sim.close()
    }
  }

  const buffered = await run((ask, _mapConcurrent, toReadable) => [toReadable(from(inputs).pipe(mergeMap(ask, concurrency)))])
  const pull = await run((ask, mapConcurrent) => [Readable.from(inputs), mapConcurrent(ask, { concurrency })])
  for (const [name, r] of Object.entries({ toReadable: buffered, mapConcurrent: pull })) {
    if (r.written !== prompts || r.created !== prompts) throw new Error(`${name} wrote ${r.written} lines from ${r.created} responses, not ${prompts}`)
  }
  return { prompts, concurrency, buffer, writeDelayMs, at, bound: concurrency + buffer, buffered, pull }
}
