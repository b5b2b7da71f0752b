import { createEnvironmentInjector, Injector, PLATFORM_ID, type EnvironmentInjector, type EnvironmentProviders, type Provider } from '@angular/core'
import type { GatewayFeature } from '../../src/angular/provideGateway.js'
import type { Transport, TransportRequest } from '../../src/index.js'

/** The app's injector on a platform, with `providers`. */
export function appInjector(platform: 'browser' | 'server', ...providers: (EnvironmentProviders | Provider)[]): EnvironmentInjector {
  const root = createEnvironmentInjector([{ provide: PLATFORM_ID, useValue: platform }], Injector.NULL as EnvironmentInjector)
  return createEnvironmentInjector(providers, root)
}

const RESPONSE = { id: 'resp_1', object: 'response', created_at: 1, model: 'm', status: 'completed', output: [] }

/** A transport that answers every call with a completed response (as an event stream when the body asks for one) and records it. */
export function recordingFeature(): GatewayFeature & { readonly calls: TransportRequest[] } {
  const calls: TransportRequest[] = []
  const transport: Transport = async (request) => {
    calls.push(request)
    const stream = request.body !== undefined && (JSON.parse(request.body) as { stream?: unknown }).stream === true
    const body = stream ? `data: ${JSON.stringify({ type: 'response.completed', sequence_number: 1, response: RESPONSE })}\n\n` : JSON.stringify(RESPONSE)
    const type = stream ? 'text/event-stream' : 'application/json'
    return { status: 200, header: (name) => (name === 'content-type' ? type : undefined), body: (async function* () { yield new TextEncoder().encode(body) })(), text: async () => body }
  }
  return { kind: 'recording', transport: () => transport, calls }
}
