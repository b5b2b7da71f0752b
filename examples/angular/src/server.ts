import { AngularNodeAppEngine, createNodeRequestHandler, isMainModule, writeResponseToNodeResponse } from '@angular/ssr/node'
import express from 'express'
import { join } from 'node:path'
import { createGatewayHandler, expressMiddleware } from 'rxgate/server'

const browserDistFolder = join(import.meta.dirname, '../browser')

const app = express()
const angularApp = new AngularNodeAppEngine()

// The gateway's calls, with the key: only this server reads GATEWAY_API_KEY,
// so it never reaches the browser bundle or any reply. (`ng build` loads this
// file too, to list the routes, without the variables: then nothing is mounted.)
const { GATEWAY_BASE_URL: baseUrl, GATEWAY_API_KEY: apiKey } = process.env
if (baseUrl && apiKey) {
  const gateway = createGatewayHandler({
    baseUrl,
    apiKey,
    basePath: '/api/rxgate',
    models: ['gpt-4.1-mini', 'vendor-b/t2v-spark'],
    // Open to every caller on purpose: this example listens on 127.0.0.1 only,
    // for the person at this machine (and the relay answers only requests to
    // a loopback name from a loopback page, so a site whose name is made to
    // resolve to 127.0.0.1 gets a 403). An app others can reach passes a check
    // that looks the session up instead:
    // authorize: async (request) => (await sessions.verify(request.headers.get('cookie'))) !== undefined.
    allowUnauthenticated: true,
  })
  app.use(expressMiddleware(gateway))
}

app.use(express.static(browserDistFolder, { maxAge: '1y', index: false, redirect: false }))

app.use((req, res, next) => {
  angularApp
    .handle(req)
    .then((response) => (response ? writeResponseToNodeResponse(response, res) : next()))
    .catch(next)
})

if (isMainModule(import.meta.url) || process.env['pm_id']) {
  if (!baseUrl || !apiKey) console.warn('GATEWAY_BASE_URL and GATEWAY_API_KEY are not set: /api/rxgate is not served.')
  const port = Number(process.env['PORT'] ?? 4000)
  const server = app.listen(port, '127.0.0.1', (error) => {
    if (error) throw error
    const address = server.address()
    console.log(`Listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`)
  })
}

/** The request handler used by the Angular CLI (dev server, build) and by serve.mjs. */
export const reqHandler = createNodeRequestHandler(app)
