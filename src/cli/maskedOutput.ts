import { keySpans } from '../errors/keySpans.js'
import { MIN_SECRET_LENGTH, scrubText } from '../errors/redact.js'

/** A text sink that masks the key, also when the key arrives split over several writes. */
export interface MaskedOutput {
  /** Writes `text`, masked; its last few characters may wait for the next write. */
  write(text: string): void
  /** Writes what is waiting (at the end, or before other output to the same place). */
  flush(): void
}

/**
 * Masks `secret` (and every 8-character piece of it) in what the CLI
 * prints, as `scrubText` does, for text that arrives in pieces (streamed
 * deltas). Each write is passed on at once except the shortest tail that
 * could still become part of the key: the longest end of it (at most 7
 * characters) that occurs in the key, or a masked stretch that reaches the
 * end. Ordinary text waits for nothing, so streaming stays live.
 *
 * @example
 * ```ts
 * const out = maskedOutput((t) => process.stdout.write(t), 'sk-1234567890abcdef')
 * out.write('key sk-12345')
 * out.write('67890abcdef!')
 * out.flush() // printed: 'key [redacted]!'
 * ```
 */
export function maskedOutput(sink: (text: string) => void, secret: string | undefined): MaskedOutput {
  if (!secret || secret.length < MIN_SECRET_LENGTH) return { write: (text) => text && sink(text), flush: () => {} }
  let pending = ''
  return {
    write(text) {
      pending += text
      const cut = safeEnd(pending, secret)
      if (cut > 0) {
        sink(scrubText(pending.slice(0, cut), secret))
        pending = pending.slice(cut)
      }
    },
    flush() {
      if (pending) sink(scrubText(pending, secret))
      pending = ''
    },
  }
}

/** Where `text` can be cut so that no stretch of the key, now or once more text comes, spans the cut. */
function safeEnd(text: string, secret: string): number {
  let cut = text.length
  // The longest end of the text that is part of the key may go on in the next write.
  for (let n = Math.min(MIN_SECRET_LENGTH - 1, text.length); n > 0; n--) {
    if (secret.includes(text.slice(-n))) {
      cut = text.length - n
      break
    }
  }
  // Never cut inside a stretch to be masked, nor after one that reaches the cut: it may go on.
  const spans = keySpans(text, secret).sort((a, b) => b[0] - a[0])
  for (const [start, end] of spans) if (start < cut && end >= cut) cut = start
  return cut
}
