import { catchError, map, merge, of, share, startWith, switchMap, type Observable } from 'rxjs'
import { outputText, textDeltas, type Gateway } from 'rxgate/angular'

/** What the page shows of one run. */
export interface View {
  readonly topic: string
  readonly phase: 'idle' | 'writing' | 'rendering' | 'done' | 'stopped' | 'failed'
  /** The video prompt, as streamed so far. */
  readonly text: string
  /** Each step of the video task, in order: created, pending, processing, completed. */
  readonly statuses: readonly string[]
  readonly video?: string
  readonly error?: string
}

/** A step of a run, applied to the view. */
export type Change = (view: View) => View

export const IDLE: View = { topic: '', phase: 'idle', text: '', statuses: [] }

/** Stop marks a run that is under way; a finished one stays as it is. */
export const stopped: Change = (view) => (view.phase === 'writing' || view.phase === 'rendering' ? { ...view, phase: 'stopped' } : view)

/**
 * One run as changes to the view: a model writes a video prompt about
 * `topic`, streamed into the page word by word, and the finished prompt is
 * rendered as a video. Unsubscribing (Stop, a new run, leaving the page)
 * aborts whichever call is under way.
 */
export function run$(gateway: Gateway, topic: string): Observable<Change> {
  const events$ = gateway
    .responses$({ model: 'gpt-4.1-mini', input: `Write a one-sentence prompt for a short video about: ${topic}`, stream: true })
    .pipe(share())
  const writing$ = events$.pipe(
    textDeltas(),
    map((delta): Change => (view) => ({ ...view, text: view.text + delta })),
  )
  const rendering$ = events$.pipe(
    outputText(),
    switchMap((prompt) => gateway.textToVideo$({ prompt: prompt.slice(0, 2000), size: '1280*720', duration: 5 })),
    map((event): Change => (view) => ({
      ...view,
      phase: event.type === 'completed' ? 'done' : 'rendering',
      statuses: [...view.statuses, event.type],
      ...(event.type === 'completed' ? { video: event.urls[0] } : {}),
    })),
  )
  const begin: Change = () => ({ ...IDLE, topic, phase: 'writing' })
  return merge(writing$, rendering$).pipe(
    startWith(begin),
    catchError((error: unknown) => of<Change>((view) => ({ ...view, phase: 'failed', error: error instanceof Error ? error.message : String(error) }))),
  )
}
