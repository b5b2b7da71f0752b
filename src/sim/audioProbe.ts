import { createAudioSniffer, sniffFrameWindow, type AudioFacts } from './audioSniff.js'
import type { AudioSource } from './audioSource.js'

/** How many bytes of the head are asked for: a kilobyte holds every WAV and MP3 header the simulator reads. */
export const HEAD_BYTES = 1024

/**
 * Reads what an audio file is: a ranged read of its first kilobyte, fed to
 * the sniffer chunk by chunk and stopped once it has decided (so a server
 * that ignores ranges and sends the whole file is not read to the end);
 * then, for an MP3 whose first frame lies beyond a long ID3 tag, a second
 * ranged read at that frame.
 */
export async function probeAudio(source: AudioSource): Promise<{ facts: AudioFacts; size?: number }> {
  const head = await source.open(0, HEAD_BYTES)
  const sniffer = createAudioSniffer(head.size)
  let facts: AudioFacts | undefined
  try {
    let read = 0
    for await (const chunk of head.chunks) {
      read += chunk.length
      facts = sniffer.push(chunk)
      if (facts || read >= HEAD_BYTES) break
    }
  } finally {
    head.close()
  }
  facts ??= sniffer.end()
  if (facts.format === 'mp3' && facts.frameAt !== undefined) {
    const window = await source.open(facts.frameAt, HEAD_BYTES)
    const parts: Uint8Array[] = []
    try {
      for await (const chunk of window.chunks) {
        parts.push(chunk)
        if (parts.reduce((n, p) => n + p.length, 0) >= HEAD_BYTES) break
      }
    } finally {
      window.close()
    }
    facts = sniffFrameWindow(Buffer.concat(parts), facts.frameAt, head.size)
  }
  return { facts, ...(head.size === undefined ? {} : { size: head.size }) }
}
