import { apiError } from './apiError.js'
import type { Call, Route } from './call.js'

/** Answers a CORS preflight: 204, any origin, the asked headers (plus Authorization and Content-Type) allowed. */
export function preflight(call: Call): void {
  const asked = call.req.headers['access-control-request-headers'] ?? ''
  const allowed = new Set(['authorization', 'content-type', ...asked.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)])
  call.log.status = 204
  call.res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': [...allowed].join(', '),
    'access-control-max-age': '600',
  })
  call.res.end()
}

/** Finds the route of a request (`HEAD` goes to `GET` routes); 404 for an unknown path, 405 with `Allow` for a wrong method. */
export function resolve(routes: readonly Route[], method: string, path: string): { route: Route; params: string[] } {
  const allow = new Set<string>()
  for (const route of routes) {
    const match = route.pattern.exec(path)
    if (!match) continue
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params: match.slice(1) }
    allow.add(route.method)
  }
  if (allow.size === 0) throw apiError(404, `Unknown path ${path}.`, 'not_found')
  const methods = [...allow].join(', ')
  throw apiError(405, `Method ${method} is not allowed on ${path}; use ${methods}.`, 'method_not_allowed', { headers: { allow: methods } })
}

/** Checks `Authorization: Bearer <key>`; a missing or wrong one is a 401 that never echoes the token sent. */
export function authorize(call: Call, apiKey: string): void {
  const header = call.req.headers.authorization
  const unauthorized = (message: string) => apiError(401, message, 'invalid_api_key', { headers: { 'www-authenticate': 'Bearer' } })
  if (!header) throw unauthorized('Missing bearer token: send the header "Authorization: Bearer <API key>".')
  const [scheme = '', token = ''] = header.split(' ')
  if (scheme.toLowerCase() !== 'bearer' || token !== apiKey) throw unauthorized('Incorrect API key provided: check the bearer token.')
}
