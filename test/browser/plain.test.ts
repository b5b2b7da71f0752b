import { expect, it } from 'vitest'
import { browserSuite, requestsTo, RESPONSES, ROOT, useBrowser, useServer, useSimulator, watch } from './helpers.js'
import { checkNoKeyNoErrors, checkRun, checkStop } from './studio.js'

// examples/plain: a page with no framework, bundled from rxgate's browser
// build, served with rxgate/server (node:http) in front of the simulator.
browserSuite(
  'a plain page in Chromium',
  { [`${ROOT}dist/browser/index.js`]: 'npm run build', [`${ROOT}dist/server/index.js`]: 'npm run build' },
  () => {
    const browser = useBrowser()
    const sim = useSimulator()
    const url = useServer('examples/plain/server.mjs', sim)

    it('streams the text into the page, follows the video task and plays the video, with no key anywhere', async () => {
      const page = await browser().newPage()
      const watched = watch(page)
      const from = sim().requests.length
      const closedBefore = sim().connectionsClosedByClient
      await page.goto(url())
      await checkRun(page, () => page.click('[data-testid=start]'))
      await checkNoKeyNoErrors(watched)
      // The stream was not cut short: the gateway saw no client close it. (That a
      // finished body is read to its end rather than cancelled is shown where it can
      // fail: test/streams/sse.test.ts and test/transport/fetchTransport.test.ts.
      // Chromium's devtools protocol reports any fetch body read as a stream as
      // net::ERR_ABORTED even when read to the end, so the page cannot tell.)
      const streams = requestsTo(sim(), from, 'POST', RESPONSES)
      expect(streams.map((r) => r.aborted)).toEqual([false])
      expect(sim().connectionsClosedByClient).toBe(closedBefore)
      await page.close()
    })

    it('stops mid-stream: the gateway sees the client close', async () => {
      const page = await browser().newPage()
      const watched = watch(page)
      await page.goto(url())
      await checkStop(page, sim(), () => page.click('[data-testid=start]'))
      expect(watched.problems).toEqual([])
      await page.close()
    })
  },
)
