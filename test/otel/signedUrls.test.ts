import { describe, expect, it } from 'vitest'
import { endpoints } from '../../src/endpoints.js'
import { openTelemetry } from '../../src/otel/index.js'
import type { OperationInfo } from '../../src/telemetry.js'
import { exported, only, recorder } from './helpers.js'

// The parts of a signed URL that let anyone fetch the file: the URL's query, whatever its provider calls it.
const SIGNED_VIDEO = 'https://cdn.test/results/v1.mp4?Expires=1700003600&Signature=c2lnbmF0dXJl&Key-Pair-Id=K2JCJMDEHXQW5F'
const SIGNED_IMAGE = 'https://bucket.s3.test/in/cat.png?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=deadbeefcafe#frag'
const SIGNED_AUDIO = 'https://user:pw@files.test/voice.wav?sig=0a1b2c3d&se=2030-01-01'
const SECRETS = ['Expires=', 'Signature', 'Key-Pair-Id', 'X-Amz-', 'AKIAEXAMPLE', 'deadbeefcafe', 'sig=', '0a1b2c3d', 'user:pw', '#frag', 'base64,']

function info(over: Partial<OperationInfo>): OperationInfo {
  return { operation: 'chat', model: 'm', baseUrl: 'https://gw.test', path: '/v1/responses', redact: (t) => t, ...over }
}

describe('openTelemetry with captureContent: URLs are recorded without what signs them', () => {
  it("a task's input URLs and result URLs keep scheme, host and path; never the query, fragment or user", () => {
    const { tracer, meter, spans } = recorder()
    const telemetry = openTelemetry({ tracer, meter, captureContent: true })
    const request = { prompt: 'a kite', image_url: SIGNED_IMAGE, audio_url: SIGNED_AUDIO, last_frame_url: 'data:image/png;base64,AAAA' }
    const trace = telemetry.operation(info({ operation: 'generate_content', model: 't2v-spark', request, endpoint: endpoints.t2vSpark }))
    trace.taskStatus({ type: 'completed', taskId: 't1', urls: [SIGNED_VIDEO] } as never)
    trace.end('ok')
    const span = only(spans(), 'generate_content t2v-spark')
    expect(JSON.parse(String(span.attributes['gen_ai.input.messages']))).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'a kite' },
          { type: 'uri', modality: 'image', uri: 'https://bucket.s3.test/in/cat.png' },
          { type: 'uri', modality: 'audio', uri: 'https://files.test/voice.wav' },
          { type: 'uri', modality: 'last_frame' },
        ],
      },
    ])
    expect(JSON.parse(String(span.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'uri', modality: 'video', uri: 'https://cdn.test/results/v1.mp4' }], finish_reason: 'stop' },
    ])
    const json = exported(spans())
    for (const secret of SECRETS) expect(json).not.toContain(secret)
  })

  it("an input image of a chat is recorded by its address alone", () => {
    const { tracer, meter, spans } = recorder()
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: SIGNED_IMAGE }] }]
    openTelemetry({ tracer, meter, captureContent: true }).operation(info({ request: { model: 'm', input } })).end('ok')
    const span = only(spans(), 'chat m')
    expect(JSON.parse(String(span.attributes['gen_ai.input.messages']))[0].parts[1]).toEqual({ type: 'uri', modality: 'image', uri: 'https://bucket.s3.test/in/cat.png' })
    const json = exported(spans())
    for (const secret of SECRETS) expect(json).not.toContain(secret)
  })
})
