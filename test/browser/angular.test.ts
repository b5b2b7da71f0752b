import { readdirSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { browserSuite, requestsTo, RESPONSES, ROOT, T2V, useBrowser, useServer, useSimulator, watch } from './helpers.js'
import { checkNoKeyNoErrors, checkRun, checkStop } from './studio.js'

// examples/angular: a zoneless Angular 21 app with server-side rendering,
// calling through HttpClient; its server (src/server.ts) mounts rxgate/server
// with Express, in front of the simulator.
const DIST = `${ROOT}examples/angular/dist/rxgate-example/`
const SERVER = 'examples/angular/dist/rxgate-example/server/server.mjs'

browserSuite('the Angular example in Chromium', { [`${ROOT}${SERVER}`]: 'cd examples/angular && npm ci && npm run build' }, () => {
  const browser = useBrowser()
  const sim = useSimulator()
  const url = useServer(SERVER, sim)

  it('rendered in the browser: streams into the template, follows the task, plays the video; the key is nowhere', async () => {
    const page = await browser().newPage()
    const watched = watch(page)
    await page.goto(`${url()}/csr`)
    await checkRun(page, () => page.click('[data-testid=start]'))
    const bundle = readdirSync(`${DIST}browser`)
      .filter((name) => name.endsWith('.js'))
      .map((name) => ({ name, body: readFileSync(`${DIST}browser/${name}`) }))
    expect(bundle.length).toBeGreaterThan(0)
    await checkNoKeyNoErrors(watched, bundle)
    await page.close()
  })

  it('stops mid-stream: HttpClient’s fetch is aborted and the gateway sees the client close', async () => {
    const page = await browser().newPage()
    const watched = watch(page)
    await page.goto(`${url()}/csr`)
    await checkStop(page, sim(), () => page.click('[data-testid=start]'))
    expect(watched.problems).toEqual([])
    await page.close()
  })

  it('server-side rendering sends nothing and does not hang; the page view then creates exactly once', async () => {
    const from = sim().requests.length
    const address = `${url()}/?topic=${encodeURIComponent('a paper kite over the sea')}`
    // The server's render alone: it answers at once, with the page in its first state, and calls nothing.
    const rendered = await fetch(address, { signal: AbortSignal.timeout(10_000) })
    const html = await rendered.text()
    expect(rendered.status).toBe(200)
    expect(html).toContain('ng-server-context="ssr"')
    expect(html).toMatch(/data-testid="phase"[^>]*>writing</)
    expect(sim().requests.slice(from)).toEqual([])

    // A page view: server render, hydration, then the browser's own calls.
    const page = await browser().newPage()
    const watched = watch(page)
    await page.goto(address)
    await page.waitForFunction(() => document.querySelector('[data-testid=phase]')?.textContent === 'done', undefined, { timeout: 30_000 })
    expect(requestsTo(sim(), from, 'POST', RESPONSES)).toHaveLength(1)
    expect(requestsTo(sim(), from, 'POST', T2V)).toHaveLength(1)
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2)
    await checkNoKeyNoErrors(watched)
    await page.close()
  })
})
