import { map, type Observable } from 'rxjs'
import { checkAudio$, type AudioCheck } from '../audio/checkAudio$.js'

/**
 * The audio preflight of `rxgate video --audio URL`: reads a few KB of the
 * file (without the gateway's key) and emits one line saying what it found,
 * so the user sees it before any task is created. A file that breaks a rule
 * or cannot be read ends in `InvalidRequestError` (exit 2, nothing created).
 * Private addresses are refused as in `textToVideo$`, but for `allowHosts`
 * (the gateway's own origin, so the simulator's samples pass).
 */
export function audioPreflight$(url: string, allowHosts: readonly string[], timeoutMs = 30_000): Observable<string> {
  return checkAudio$(url, { timeoutMs, allowHosts }).pipe(map(describe))
}

function describe(found: AudioCheck): string {
  if (!found.checked) return `Audio not checked here (${found.reason}); the gateway will judge it`
  const seconds = found.seconds === undefined ? 'length unknown' : `${found.estimated ? 'about ' : ''}${found.seconds.toFixed(1)} s`
  const bytes = found.bytes === undefined ? 'size unknown' : `${found.bytes.toLocaleString('en-US')} bytes`
  return `Audio checked: ${found.format.toUpperCase()}, ${seconds}, ${bytes}; within the rules (WAV or MP3, 3 to 30 s, at most 15 MB)`
}
