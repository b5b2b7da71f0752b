// A page with no framework: a model writes a video prompt, streamed into the
// page word by word, and the prompt is rendered as a video. The page calls its
// own server (/api/rxgate, see server.mjs), which holds the key.
import { createClient, outputText, responses$, textDeltas, textToVideo$ } from 'rxgate'
import { catchError, defer, EMPTY, fromEvent, ignoreElements, map, merge, share, switchMap, takeUntil, tap } from 'rxjs'

const client = createClient({
  baseUrl: '/api/rxgate',
  // The embedded simulator renders in 1.5 s; against a real gateway leave this out.
  taskPoll: { initialDelayMs: 250, factor: 1.5, maxDelayMs: 2_000 },
})

const $ = (id) => document.querySelector(`[data-testid=${id}]`)
const form = document.querySelector('#form')
const stopClicks$ = fromEvent($('stop'), 'click').pipe(tap(() => show('stopped')))

fromEvent(form, 'submit')
  .pipe(
    tap((event) => event.preventDefault()),
    map(() => String(new FormData(form).get('topic'))),
    // A new run, or Stop, unsubscribes the run under way: that aborts its request.
    switchMap((topic) => run$(topic).pipe(takeUntil(stopClicks$))),
  )
  .subscribe()

function run$(topic) {
  return defer(() => {
    reset()
    const events$ = responses$(client, { model: 'gpt-4.1-mini', input: `Write a one-sentence prompt for a short video about: ${topic}`, stream: true }).pipe(share())
    const writing$ = events$.pipe(
      textDeltas(),
      tap((delta) => $('text').append(delta)),
      ignoreElements(),
    )
    const rendering$ = events$.pipe(
      outputText(),
      tap(() => show('rendering')),
      switchMap((prompt) => textToVideo$(client, { prompt: prompt.slice(0, 2000), size: '1280*720', duration: 5 })),
      tap((event) => {
        $('statuses').append(Object.assign(document.createElement('li'), { textContent: event.type }))
        if (event.type !== 'completed') return
        Object.assign($('video'), { src: event.urls[0], hidden: false })
        show('done')
      }),
    )
    return merge(writing$, rendering$).pipe(
      // A failure ends the run on the page (not as an error in the console).
      catchError((error) => {
        Object.assign($('error'), { textContent: error.message, hidden: false })
        show('failed')
        return EMPTY
      }),
    )
  })
}

function reset() {
  $('text').textContent = ''
  $('statuses').textContent = ''
  $('video').hidden = true
  $('error').hidden = true
  show('writing')
}

function show(phase) {
  $('phase').textContent = phase
  $('stop').disabled = phase !== 'writing' && phase !== 'rendering'
}
