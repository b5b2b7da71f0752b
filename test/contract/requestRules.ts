/**
 * The request rules of SPEC.md, every constraint at its boundary and on both
 * sides of it, as data: one row is one body and what the interface says of
 * it (accepted, or refused naming one field). Written from SPEC.md's field
 * tables alone; `requestRules.test.ts` runs every row against the client
 * (refused before sending, or sent) and the simulator (400 naming the
 * field, or 200/202).
 *
 * "Characters" are counted as Unicode code points: some rows are made of
 * emoji (one code point, two UTF-16 units) so that counting UTF-16 units
 * refuses a body that is within the limit, and counting graphemes accepts
 * one that is over it.
 */

/** One body and the interface's verdict on it. */
export interface RequestRule {
  readonly title: string
  readonly body: Readonly<Record<string, unknown>>
  /** The field a refusal must name; absent when the body is accepted. */
  readonly refuses?: string
}

/** Stands for the id of a response the gateway has stored (rows continuing a conversation); the runner fills it in. */
export const STORED_RESPONSE_ID = '<stored response id>'

/** One code point outside the BMP: two UTF-16 units. */
const EMOJI = '😀'
/** One grapheme of two code points (a thumbs-up and a skin tone). */
const TONED = '👍🏽'

const ascii = (n: number, c = 'a') => c.repeat(n)
const emoji = (n: number) => EMOJI.repeat(n)

/** An object with exactly these own keys, `__proto__` included as a plain key (as JSON.parse would make it). */
const own = (entries: readonly (readonly [string, unknown])[]): Record<string, unknown> => Object.fromEntries(entries)
const pairs = (n: number): Record<string, unknown> => own(Array.from({ length: n }, (_, i) => [`key${i + 1}`, `value ${i + 1}`] as const))

// ---------------------------------------------------------------------------
// 1. POST /vendors/vendor-a/v1/responses

const RESPONSE_BASE = { model: 'gpt-4o', input: 'Say hi' } as const
const REASONING_MODEL = 'o3-mini'
const FUNCTION_TOOL = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }

function response(title: string, fields: Record<string, unknown>, refuses?: string): RequestRule {
  return { title, body: { ...RESPONSE_BASE, ...fields }, ...(refuses === undefined ? {} : { refuses }) }
}
const accepts = (field: string, value: unknown, what = JSON.stringify(value)) => response(`${field} ${what}`, { [field]: value })
const refuses = (field: string, value: unknown, what = JSON.stringify(value)) => response(`${field} ${what}`, { [field]: value }, field)

/** `boolean or null`. */
const booleanOrNull = (field: string): RequestRule[] => [
  accepts(field, true),
  accepts(field, false),
  accepts(field, null),
  refuses(field, 'true', 'the string "true"'),
  refuses(field, 1),
]

/** `string or null`. */
const stringOrNull = (field: string, example: string): RequestRule[] => [accepts(field, example), accepts(field, null), refuses(field, 42), refuses(field, { text: example }, 'an object')]

export const RESPONSE_RULES: readonly RequestRule[] = [
  // model: string, required
  response('a minimal body: model and input', {}),
  { title: 'model missing', body: { input: 'Say hi' }, refuses: 'model' },
  { title: 'model alone (every other field is optional)', body: { model: 'gpt-4o' } },
  refuses('model', 42),
  refuses('model', null),
  refuses('model', ['gpt-4o'], 'an array'),

  // input: string, or array of structured message objects
  accepts('input', 'Say hi'),
  accepts('input', [{ role: 'user', content: 'Say hi' }], 'an array of one message'),
  accepts('input', [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hi' }] }], 'an array of one message with content parts'),
  refuses('input', 42),
  refuses('input', true),
  refuses('input', null),
  refuses('input', { role: 'user', content: 'Say hi' }, 'a message object not in an array'),
  refuses('input', ['Say hi'], 'an array of strings'),

  // instructions, previous_response_id: string or null
  ...stringOrNull('instructions', 'Answer in one sentence.'),
  accepts('previous_response_id', STORED_RESPONSE_ID, 'the id of a stored response'),
  accepts('previous_response_id', null),
  refuses('previous_response_id', 42),
  refuses('previous_response_id', true),

  // prompt: object
  accepts('prompt', { id: 'pmpt_123', variables: { city: 'Paris' } }, 'an object'),
  refuses('prompt', 'pmpt_123'),
  refuses('prompt', null),
  refuses('prompt', [], 'an array'),

  // max_output_tokens: integer or null, >= 1
  accepts('max_output_tokens', 1),
  accepts('max_output_tokens', 4096),
  accepts('max_output_tokens', null),
  refuses('max_output_tokens', 0),
  refuses('max_output_tokens', -1),
  refuses('max_output_tokens', 1.5),
  refuses('max_output_tokens', '16', 'the string "16"'),

  // max_tool_calls: integer or null
  accepts('max_tool_calls', 0),
  accepts('max_tool_calls', 5),
  accepts('max_tool_calls', null),
  refuses('max_tool_calls', 2.5),
  refuses('max_tool_calls', '5', 'the string "5"'),

  // temperature: number or null, 0 to 2 inclusive
  accepts('temperature', 0),
  accepts('temperature', 2),
  accepts('temperature', 0.7),
  accepts('temperature', null),
  refuses('temperature', -0.000001),
  refuses('temperature', 2.000001),
  refuses('temperature', '1', 'the string "1"'),
  refuses('temperature', true),

  // top_p: number or null, 0 to 1 inclusive
  accepts('top_p', 0),
  accepts('top_p', 1),
  accepts('top_p', 0.5),
  accepts('top_p', null),
  refuses('top_p', -0.000001),
  refuses('top_p', 1.000001),
  refuses('top_p', '0.5', 'the string "0.5"'),

  // top_logprobs: integer or null, 0 to 20 inclusive
  accepts('top_logprobs', 0),
  accepts('top_logprobs', 20),
  accepts('top_logprobs', null),
  refuses('top_logprobs', -1),
  refuses('top_logprobs', 21),
  refuses('top_logprobs', 2.5),
  refuses('top_logprobs', '5', 'the string "5"'),

  // parallel_tool_calls, stream, background, store: boolean or null
  ...booleanOrNull('parallel_tool_calls'),
  ...booleanOrNull('stream'),
  ...booleanOrNull('background'),
  ...booleanOrNull('store'),

  // text: object
  accepts('text', { format: { type: 'text' } }, 'plain text format'),
  accepts(
    'text',
    { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }, strict: true } },
    'a json_schema format',
  ),
  refuses('text', 'text'),
  refuses('text', null),
  refuses('text', [], 'an array'),

  // tools: array of object or null
  accepts('tools', [], 'an empty array'),
  accepts('tools', [FUNCTION_TOOL], 'a function tool'),
  accepts('tools', [{ type: 'web_search' }], 'a built-in tool'),
  accepts('tools', null),
  refuses('tools', {}, 'an object'),
  refuses('tools', 'web_search'),
  refuses('tools', ['web_search'], 'an array of strings'),

  // tool_choice: none, auto, required, or an object
  response('tool_choice "none"', { tools: [FUNCTION_TOOL], tool_choice: 'none' }),
  response('tool_choice "auto"', { tools: [FUNCTION_TOOL], tool_choice: 'auto' }),
  response('tool_choice "required"', { tools: [FUNCTION_TOOL], tool_choice: 'required' }),
  response('tool_choice a function object', { tools: [FUNCTION_TOOL], tool_choice: { type: 'function', name: 'get_weather' } }),
  response('tool_choice "any"', { tools: [FUNCTION_TOOL], tool_choice: 'any' }, 'tool_choice'),
  response('tool_choice "Auto"', { tools: [FUNCTION_TOOL], tool_choice: 'Auto' }, 'tool_choice'),
  response('tool_choice 42', { tools: [FUNCTION_TOOL], tool_choice: 42 }, 'tool_choice'),
  response('tool_choice null', { tools: [FUNCTION_TOOL], tool_choice: null }, 'tool_choice'),

  // reasoning: object, only for reasoning models
  response('reasoning {"effort":"low"} on a reasoning model', { model: REASONING_MODEL, reasoning: { effort: 'low' } }),
  response('reasoning "low"', { model: REASONING_MODEL, reasoning: 'low' }, 'reasoning'),
  response('reasoning null', { model: REASONING_MODEL, reasoning: null }, 'reasoning'),
  response('reasoning an array', { model: REASONING_MODEL, reasoning: [] }, 'reasoning'),

  // truncation: auto, disabled, or null
  accepts('truncation', 'auto'),
  accepts('truncation', 'disabled'),
  accepts('truncation', null),
  refuses('truncation', 'other'),
  refuses('truncation', 'AUTO'),
  refuses('truncation', 1),

  // metadata: object; at most 16 pairs; keys at most 64 characters; values at most 512 characters
  accepts('metadata', {}, 'an empty object'),
  accepts('metadata', pairs(16), 'of 16 pairs'),
  refuses('metadata', pairs(17), 'of 17 pairs'),
  accepts('metadata', own([[ascii(64, 'k'), 'v']]), 'with a key of 64 ASCII characters'),
  refuses('metadata', own([[ascii(65, 'k'), 'v']]), 'with a key of 65 ASCII characters'),
  accepts('metadata', own([[emoji(64), 'v']]), 'with a key of 64 emoji (128 UTF-16 units)'),
  refuses('metadata', own([[emoji(64) + 'k', 'v']]), 'with a key of 65 characters, 64 of them emoji'),
  accepts('metadata', { note: ascii(512) }, 'with a value of 512 ASCII characters'),
  refuses('metadata', { note: ascii(513) }, 'with a value of 513 ASCII characters'),
  accepts('metadata', { note: emoji(512) }, 'with a value of 512 emoji (1024 UTF-16 units)'),
  refuses('metadata', { note: emoji(513) }, 'with a value of 513 emoji'),
  accepts('metadata', { note: TONED.repeat(256) }, 'with a value of 256 toned thumbs (512 code points)'),
  refuses('metadata', { note: TONED.repeat(256) + 'a' }, 'with a value of 256 toned thumbs and a letter (513 code points, 257 graphemes)'),
  accepts('metadata', own([['__proto__', 'a'], ['constructor', 'b'], ['prototype', 'c']]), 'with the keys __proto__, constructor and prototype'),
  refuses('metadata', own([['__proto__', ascii(513)]]), 'with a __proto__ value of 513 characters'),
  refuses('metadata', own([['constructor', ascii(513)]]), 'with a constructor value of 513 characters'),
  refuses('metadata', own([['prototype', ascii(513)]]), 'with a prototype value of 513 characters'),
  refuses('metadata', own([['__proto__', 42]]), 'with a __proto__ value that is a number'),
  refuses('metadata', own([...Object.entries(pairs(16)), ['__proto__', 'x']]), 'of 16 pairs and __proto__'),
  refuses('metadata', { count: 42 }, 'with a number value'),
  refuses('metadata', 'campaign=spring'),
  refuses('metadata', [], 'an array'),
  refuses('metadata', null),

  // user: string or null
  ...stringOrNull('user', 'user-1234'),

  // include: array of string or null
  accepts('include', ['file_search_call.results'], 'an array of strings'),
  accepts('include', [], 'an empty array'),
  accepts('include', null),
  refuses('include', 'file_search_call.results'),
  refuses('include', [42], 'an array holding a number'),
]

// ---------------------------------------------------------------------------
// 2. POST /vendors/vendor-b/v1/t2v-spark/generation

const VIDEO_BASE = { prompt: 'A red kite over a grey sea' } as const

function video(title: string, fields: Record<string, unknown>, refuses?: string): RequestRule {
  return { title, body: { ...VIDEO_BASE, ...fields }, ...(refuses === undefined ? {} : { refuses }) }
}
const videoAccepts = (field: string, value: unknown, what = JSON.stringify(value)) => video(`${field} ${what}`, { [field]: value })
const videoRefuses = (field: string, value: unknown, what = JSON.stringify(value)) => video(`${field} ${what}`, { [field]: value }, field)

/** SPEC's `size` table: the 720P tier, then the 1080P tier. */
export const SIZES = ['1280*720', '720*1280', '960*960', '1088*832', '832*1088', '1920*1080', '1080*1920', '1440*1440', '1632*1248', '1248*1632'] as const

export const TEXT_TO_VIDEO_RULES: readonly RequestRule[] = [
  // prompt: string, required, max 2000 characters
  video('a minimal body: prompt', {}),
  { title: 'prompt missing', body: { size: '1280*720' }, refuses: 'prompt' },
  videoAccepts('prompt', ascii(2000), 'of 2000 ASCII characters'),
  videoRefuses('prompt', ascii(2001), 'of 2001 ASCII characters'),
  videoAccepts('prompt', emoji(2000), 'of 2000 emoji (4000 UTF-16 units)'),
  videoRefuses('prompt', emoji(2000) + 'a', 'of 2001 characters, 2000 of them emoji'),
  videoAccepts('prompt', TONED.repeat(1000), 'of 1000 toned thumbs (2000 code points)'),
  videoRefuses('prompt', TONED.repeat(1000) + 'a', 'of 1000 toned thumbs and a letter (2001 code points, 1001 graphemes)'),
  videoRefuses('prompt', 42),
  videoRefuses('prompt', null),

  // negative_prompt: string, max 500 characters
  videoAccepts('negative_prompt', 'blurry, low quality'),
  videoAccepts('negative_prompt', ascii(500), 'of 500 ASCII characters'),
  videoRefuses('negative_prompt', ascii(501), 'of 501 ASCII characters'),
  videoAccepts('negative_prompt', emoji(500), 'of 500 emoji'),
  videoRefuses('negative_prompt', emoji(501), 'of 501 emoji'),
  videoRefuses('negative_prompt', 42),
  videoRefuses('negative_prompt', null),

  // audio: boolean or null
  videoAccepts('audio', true),
  videoAccepts('audio', false),
  videoAccepts('audio', null),
  videoRefuses('audio', 'yes'),
  videoRefuses('audio', 1),

  // audio_url: string (URI) or null
  videoAccepts('audio_url', 'https://example.com/voice.mp3', 'an absolute https URI'),
  videoAccepts('audio_url', 'http://example.com/tracks/voice.wav?sig=abc', 'an absolute http URI with a query'),
  videoAccepts('audio_url', null),
  video('audio_url with audio false (the URL overrides audio)', { audio: false, audio_url: 'https://example.com/voice.mp3' }),
  videoRefuses('audio_url', '/voice.mp3', 'a relative path'),
  videoRefuses('audio_url', 'voice.mp3', 'a bare file name'),
  videoRefuses('audio_url', '', 'an empty string'),
  videoRefuses('audio_url', 42),

  // size: one of the ten `width*height` values
  ...SIZES.map((size) => videoAccepts('size', size)),
  videoRefuses('size', '832*480', '"832*480" (480P, not in the interface)'),
  videoRefuses('size', '480*832', '"480*832" (480P, not in the interface)'),
  videoRefuses('size', '624*624', '"624*624" (480P, not in the interface)'),
  videoRefuses('size', '1280x720'),
  videoRefuses('size', '1280 * 720'),
  videoRefuses('size', '720P'),
  videoRefuses('size', 1280),
  videoRefuses('size', null),

  // duration: integer, 5 or 10
  videoAccepts('duration', 5),
  videoAccepts('duration', 10),
  videoRefuses('duration', 7),
  videoRefuses('duration', 0),
  videoRefuses('duration', 5.5),
  videoRefuses('duration', '5', 'the string "5"'),
  videoRefuses('duration', null),

  // prompt_extend: boolean
  videoAccepts('prompt_extend', true),
  videoAccepts('prompt_extend', false),
  videoRefuses('prompt_extend', null),
  videoRefuses('prompt_extend', 'true', 'the string "true"'),
  videoRefuses('prompt_extend', 0),

  // seed: integer, 0 to 2147483647 inclusive
  videoAccepts('seed', 0),
  videoAccepts('seed', 2147483647),
  videoAccepts('seed', 42),
  videoRefuses('seed', -1),
  videoRefuses('seed', 2147483648),
  videoRefuses('seed', 1.5),
  videoRefuses('seed', '42', 'the string "42"'),
  videoRefuses('seed', null),

  // Fields the interface does not list are refused
  videoRefuses('safety_filter', true, '(a real-gateway field the interface does not list)'),
  videoRefuses('model', 't2v-spark', '(not a field of the body)'),

  // Every field at once, each within its rule
  video('every field, each within its rule', {
    negative_prompt: 'blurry',
    audio: true,
    audio_url: 'https://example.com/voice.mp3',
    size: '1920*1080',
    duration: 10,
    prompt_extend: false,
    seed: 2147483647,
  }),
]

// ---------------------------------------------------------------------------
// 3. GET {result path}/{task_id}: `task_id` is a UUID

export interface TaskIdRule {
  readonly title: string
  readonly id: string
  readonly accepted: boolean
}

export const TASK_ID_RULES: readonly TaskIdRule[] = [
  { title: 'a UUID', id: '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a11', accepted: true },
  { title: 'a word', id: 'not-a-uuid', accepted: false },
  { title: 'a UUID one digit short', id: '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a1', accepted: false },
  { title: 'a UUID with a letter that is not hex', id: '0b6ea0f5-5f7e-4a7e-9a6c-2f0d5d0c9a1g', accepted: false },
  { title: 'a UUID without its dashes', id: '0b6ea0f55f7e4a7e9a6c2f0d5d0c9a11', accepted: false },
  { title: 'a path that climbs out', id: '../../v1/responses', accepted: false },
  { title: 'an empty string', id: '', accepted: false },
]
