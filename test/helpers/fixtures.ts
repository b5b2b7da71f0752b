/** The API key used by every test: it must never show up in an error. */
export const KEY = 'sk-live-7f3a9c2e51d84b6a0c'

/** A valid Response object; fields can be overridden. */
export function response(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'gpt-test',
    status: 'completed',
    output: [
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello there' }],
      },
    ],
    output_text: 'Hello there',
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    ...over,
  }
}

/** The spec's usage shape. */
export const SPEC_USAGE = {
  prompt_tokens: 11,
  completion_tokens: 7,
  total_tokens: 18,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
}

/** The OpenAI Responses usage shape. */
export const OPENAI_USAGE = {
  input_tokens: 11,
  output_tokens: 7,
  total_tokens: 18,
  input_tokens_details: { cached_tokens: 3 },
  output_tokens_details: { reasoning_tokens: 2 },
}

/** One SSE frame of `event`, named after its type, with `eol` line ends. */
export function frame(event: Record<string, unknown>, eol = '\n'): string {
  return `event: ${String(event.type)}${eol}data: ${JSON.stringify(event)}${eol}${eol}`
}

export function delta(seq: number, text: string, itemId = 'msg_1'): Record<string, unknown> {
  return { type: 'response.output_text.delta', sequence_number: seq, item_id: itemId, output_index: 0, content_index: 0, delta: text }
}

export function lifecycle(type: string, seq: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const status = type === 'response.completed' ? 'completed' : type === 'response.incomplete' ? 'incomplete' : type === 'response.failed' ? 'failed' : type === 'response.queued' ? 'queued' : 'in_progress'
  return { type, sequence_number: seq, response: response({ status, output: [], output_text: null, usage: null, ...over }) }
}

/** A whole simple stream: created, the deltas, completed; `\n` line ends. */
export function simpleStream(pieces: string[], id = 'resp_1'): { events: Record<string, unknown>[]; text: string } {
  const events = [
    lifecycle('response.created', 0, { id }),
    ...pieces.map((p, i) => delta(i + 1, p)),
    lifecycle('response.completed', pieces.length + 1, { id, output_text: pieces.join('') }),
  ]
  return { events, text: events.map((e) => frame(e)).join('') }
}

// ---------------------------------------------------------------------------
// A recorded stream in the OpenAI format with every quirk real traffic has:
// `: ping` comments, `\r\n` and `\n` line ends mixed, data split over several
// `data:` lines, an unknown event type, multibyte text (é, —, ï, an emoji),
// JSON escapes, and a final `data: [DONE]`.

/** The text the recorded stream's deltas add up to. */
export const RECORDED_TEXT = 'Café — naïve 🚀 ok\n"quoted"\t✓'

/** What each frame of the recorded stream is made of. */
interface RecordedFrame {
  readonly event?: string
  readonly data: readonly string[]
  readonly eol: '\n' | '\r\n'
  /** Comment lines written before the frame. */
  readonly comments?: readonly string[]
}

function recordedFrames(usage: Record<string, unknown>): RecordedFrame[] {
  const d5 = JSON.stringify(delta(5, ' — naïve 🚀'))
  const cut1 = d5.indexOf('"sequence_number"')
  const cut2 = d5.indexOf('"delta"')
  const full = response({ status: 'completed', output_text: RECORDED_TEXT, usage, output: [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: RECORDED_TEXT }] }] })
  const j = (o: unknown) => JSON.stringify(o)
  return [
    { comments: ['ping'], event: 'response.created', data: [j(lifecycle('response.created', 0))], eol: '\r\n' },
    { comments: [' keep-alive'], event: 'response.in_progress', data: [j(lifecycle('response.in_progress', 1))], eol: '\n' },
    {
      event: 'response.output_item.added',
      data: [j({ type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } })],
      eol: '\r\n',
    },
    {
      event: 'response.content_part.added',
      data: [j({ type: 'response.content_part.added', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } })],
      eol: '\n',
    },
    { event: 'response.output_text.delta', data: [j(delta(4, 'Café'))], eol: '\r\n' },
    // One JSON document over three data lines (joined with "\n", which JSON reads as whitespace).
    { comments: ['ping'], event: 'response.output_text.delta', data: [d5.slice(0, cut1), d5.slice(cut1, cut2), d5.slice(cut2)], eol: '\r\n' },
    { event: 'response.future_thing.delta', data: [j({ type: 'response.future_thing.delta', sequence_number: 6, delta: '?', extra: { nested: [1, 2] } })], eol: '\n' },
    { event: 'response.output_text.delta', data: [j(delta(7, ' ok\n"quoted"\t✓'))], eol: '\r\n' },
    {
      event: 'response.output_text.done',
      data: [j({ type: 'response.output_text.done', sequence_number: 8, item_id: 'msg_1', output_index: 0, content_index: 0, text: RECORDED_TEXT })],
      eol: '\n',
    },
    { comments: ['ping'], event: 'response.completed', data: [j({ type: 'response.completed', sequence_number: 9, response: full })], eol: '\r\n' },
    { data: ['[DONE]'], eol: '\r\n' },
  ]
}

function render(frames: RecordedFrame[]): string {
  return frames
    .map((f) => {
      const comments = (f.comments ?? []).map((c) => `:${c.startsWith(' ') ? c : ` ${c}`}${f.eol}`).join('')
      const event = f.event ? `event: ${f.event}${f.eol}` : ''
      return comments + event + f.data.map((line) => `data: ${line}${f.eol}`).join('') + f.eol
    })
    .join('')
}

/** The recorded stream as text, with the given usage shape in its final Response. */
export function recordedStream(usage: Record<string, unknown> = OPENAI_USAGE): string {
  return render(recordedFrames(usage))
}

/** The SSE messages the recorded stream holds, as a conforming parser must deliver them. */
export function recordedMessages(usage: Record<string, unknown> = OPENAI_USAGE): { event: string | undefined; data: string }[] {
  return recordedFrames(usage).map((f) => ({ event: f.event, data: f.data.join('\n') }))
}

/** `[type, sequence_number]` of every event the gateway must emit for the recorded stream, in order. */
export const RECORDED_EVENTS: [string, number][] = [
  ['response.created', 0],
  ['response.in_progress', 1],
  ['response.output_item.added', 2],
  ['response.content_part.added', 3],
  ['response.output_text.delta', 4],
  ['response.output_text.delta', 5],
  ['response.future_thing.delta', 6],
  ['response.output_text.delta', 7],
  ['response.output_text.done', 8],
  ['response.completed', 9],
]

// ---------------------------------------------------------------------------
// Media tasks.

export const TASK_ID = '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11'
export const OTHER_TASK_ID = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d'
export const T0 = '2026-03-01T10:00:00.250Z'
export const T2V = '/vendors/vendor-b/v1/t2v-spark/generation'
export const VIDEO_URL = 'https://cdn.test/video.mp4'

/** The 202 reply to a task creation. */
export function created(id = TASK_ID): Record<string, unknown> {
  return { task_info: { id, created_at: T0, updated_at: T0 } }
}

/** A task result reply in the given status (the interface's words or the newer ones). */
export function taskReply(status: string, over: { id?: string; urls?: string[]; field?: 'videos' | 'images'; error?: unknown } = {}): Record<string, unknown> {
  const { id = TASK_ID, urls = [VIDEO_URL], field = 'videos' } = over
  const done = status === 'completed' || status === 'succeeded'
  const failed = status === 'failed'
  return {
    task_info: {
      id,
      status,
      created_at: T0,
      updated_at: T0,
      ...(failed ? { error: over.error ?? { code: 3001, title: 'Task Execution Error', detail: 'prompt refused' } } : {}),
    },
    ...(done ? { [field]: urls } : {}),
  }
}
