/**
 * The interface's limits and enumerations, as plain data. The client's request
 * rules and the simulator's checks are both built from these numbers; the
 * code that applies them is each side's own.
 */

/** Text-to-video creation (`POST /vendors/vendor-b/v1/t2v-spark/generation`). */
export const TEXT_TO_VIDEO = {
  promptMaxChars: 2000,
  negativePromptMaxChars: 500,
  seedMin: 0,
  seedMax: 2147483647,
  durations: [5, 10],
  /** The ten output sizes, `width*height`: the 720P tier, then the 1080P tier. */
  sizes: [
    '1280*720',
    '720*1280',
    '960*960',
    '1088*832',
    '832*1088',
    '1920*1080',
    '1080*1920',
    '1440*1440',
    '1632*1248',
    '1248*1632',
  ],
  defaultSize: '1280*720',
  /** Fields of the creation body. */
  fields: ['prompt', 'negative_prompt', 'audio', 'audio_url', 'size', 'duration', 'prompt_extend', 'seed'],
} as const

/** Custom audio (`audio_url`) of a text-to-video task. */
export const CUSTOM_AUDIO = {
  /** The file formats accepted. */
  formats: ['wav', 'mp3'],
  /** Shortest length, in seconds. */
  minSeconds: 3,
  /** Longest length, in seconds. */
  maxSeconds: 30,
  /** Largest file, in bytes (15 MiB). */
  maxBytes: 15 * 1024 * 1024,
} as const

/** Response creation (`POST /vendors/vendor-a/v1/responses`). */
export const RESPONSE_REQUEST = {
  maxOutputTokensMin: 1,
  temperatureMin: 0,
  temperatureMax: 2,
  topPMin: 0,
  topPMax: 1,
  topLogprobsMin: 0,
  topLogprobsMax: 20,
  metadataMaxPairs: 16,
  metadataKeyMaxChars: 64,
  metadataValueMaxChars: 512,
  truncation: ['auto', 'disabled'],
  toolChoice: ['none', 'auto', 'required'],
} as const

/** How long a video download URL stays valid after generation. */
export const VIDEO_URL_TTL_MS = 60 * 60 * 1000
